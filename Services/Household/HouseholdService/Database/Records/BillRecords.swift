import Foundation
import GRDB
import ServiceKit

/// A row of `bills`; each member's part is in `bill_shares`.
struct BillRow: HouseholdRecord {
    static let databaseTableName = "bills"
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
}

/// A row of `payments`: one member settling with another.
struct PaymentRow: HouseholdRecord {
    static let databaseTableName = "payments"
    var id: String
    var householdId: String
    var fromId: String
    var toId: String
    var amount: Int
    var currency: String
    var createdAt: Date
}
