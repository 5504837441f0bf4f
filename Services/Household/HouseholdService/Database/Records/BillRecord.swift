import Foundation
import GRDB

/// A row of `bills`; each member's part is in `bill_shares`.
struct BillRecord: HouseholdTable {
    static let databaseTableName = "bills"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let description = Column("description")
        static let amount = Column("amount")
        static let currency = Column("currency")
        static let payerId = Column("payer_id")
        static let splitKind = Column("split_kind")
        static let createdBy = Column("created_by")
        static let idempotencyKey = Column("idempotency_key")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
        static let tripId = Column("trip_id")
    }

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
