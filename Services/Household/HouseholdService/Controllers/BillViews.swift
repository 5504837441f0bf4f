import Foundation
import Hummingbird

/// A bill as every bill route answers it.
extension BillsController {
    struct BillView: ResponseEncodable, Sendable {
        var id: String
        var description: String
        var amount: Int
        var currency: String
        /// Who paid it, or of several payers who paid most.
        var payerId: String
        /// Everyone who paid and how much, most first (one entry unless several paid); adds up to `amount`.
        var payers: [BillPayers.Payer]
        var split: String
        var shares: [String: Int]
        /// Set when the bill is the cost of a shopping trip (then it changes only through the trip).
        var tripId: String?
        var category: String
        var createdAt: Date
    }

    static func view(_ stored: StoredBill) -> BillView {
        let bill = stored.bill
        return BillView(
            id: bill.id, description: bill.description, amount: bill.amount, currency: bill.currency,
            payerId: bill.payerId, payers: BillPayers.list(stored.paid), split: bill.splitKind, shares: stored.shares,
            tripId: bill.tripId, category: bill.category,
            createdAt: bill.createdAt)
    }
}
