import Foundation
import Hummingbird

/// A bill as every bill route answers it.
extension BillsController {
    struct BillView: ResponseEncodable, Sendable {
        var id: String
        var description: String
        var amount: Int
        var currency: String
        var payerId: String
        var split: String
        var shares: [String: Int]
        /// Set when the bill is the cost of a shopping trip (then it changes only through the trip).
        var tripId: String?
        var category: String
        var createdAt: Date
    }

    static func view(_ bill: BillRecord, _ shares: [String: Int]) -> BillView {
        BillView(
            id: bill.id, description: bill.description, amount: bill.amount, currency: bill.currency,
            payerId: bill.payerId,
            split: bill.splitKind, shares: shares, tripId: bill.tripId, category: bill.category,
            createdAt: bill.createdAt)
    }
}
