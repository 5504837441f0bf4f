import Foundation

/// A row of `bills`; each member's part is in `bill_shares`.
struct BillRecord: Codable, Sendable {
    var id: String
    var householdId: String
    var description: String
    var amount: Int
    var currency: String
    var payerId: String
    var splitKind: String
    var createdBy: String
    var idempotencyKey: String?
    var createdAt: Date
    var updatedAt: Date
    /// The shopping trip this bill is the cost of; such a bill changes only through its trip.
    var tripId: String? = nil
    /// One of ``BillCategory/all``.
    var category = BillCategory.other
}

extension BillRecord {
    /// What each paid of a bill its payer paid alone: all of it. A bill without `bill_payers` rows is such a bill.
    var paidAlone: [String: Int] { [payerId: amount] }
}
