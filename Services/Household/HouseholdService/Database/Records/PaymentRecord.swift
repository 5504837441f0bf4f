import Foundation
import GRDB

/// A row of `payments`: one member settling with another.
struct PaymentRecord: HouseholdTable {
    static let databaseTableName = "payments"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let fromId = Column("from_id")
        static let toId = Column("to_id")
        static let amount = Column("amount")
        static let currency = Column("currency")
        static let createdAt = Column("created_at")
    }

    var id: String
    var householdId: String
    var fromId: String
    var toId: String
    var amount: Int
    var currency: String
    var createdAt: Date
}
