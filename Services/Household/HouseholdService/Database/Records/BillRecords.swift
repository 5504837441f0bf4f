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
    /// The shopping trip this bill is the cost of; such a bill changes only through its trip.
    var tripId: String? = nil
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

/// A row of `grocery_items`: on the communal list when `ownerId` is nil, else on the owner's personal list.
struct GroceryItemRow: HouseholdRecord {
    static let databaseTableName = "grocery_items"
    var id: String
    var householdId: String
    var ownerId: String?
    var name: String
    var mergeKey: String
    var quantity: Int
    var note: String?
    /// A personal item shows in the household list only when visible.
    var visible: Bool
    var createdBy: String
    var createdAt: Date
}

/// A row of `shopping_trips` without its receipt bytes.
struct TripRow: HouseholdRecord {
    static let databaseTableName = "shopping_trips"
    static let columns =
        "id, household_id, shopper_id, total, currency, bill_id, idempotency_key, receipt_type, "
        + "receipt_etag, created_at, updated_at"
    var id: String
    var householdId: String
    var shopperId: String
    var total: Int
    var currency: String
    var billId: String
    var idempotencyKey: String?
    var receiptType: String?
    var receiptEtag: String?
    var createdAt: Date
    var updatedAt: Date
}
