import Foundation
import GRDB

/// A row of `shopping_trips` without its receipt bytes.
struct TripRecord: HouseholdTable {
    static let databaseTableName = "shopping_trips"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let shopperId = Column("shopper_id")
        static let total = Column("total")
        static let currency = Column("currency")
        static let billId = Column("bill_id")
        static let idempotencyKey = Column("idempotency_key")
        static let receiptType = Column("receipt_type")
        static let receiptEtag = Column("receipt_etag")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    /// Every column but the receipt's bytes, which only the receipt route reads.
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.householdId, Columns.shopperId, Columns.total, Columns.currency, Columns.billId,
            Columns.idempotencyKey, Columns.receiptType, Columns.receiptEtag, Columns.createdAt, Columns.updatedAt,
        ]
    }

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
