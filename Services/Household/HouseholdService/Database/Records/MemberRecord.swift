import Foundation
import GRDB
import ServiceKit

/// A row of `members`.
struct MemberRecord: HouseholdTable {
    static let databaseTableName = "members"

    enum Columns {
        static let householdId = Column("household_id")
        static let userId = Column("user_id")
        static let joinedAt = Column("joined_at")
    }

    var householdId: String
    var userId: String
    var joinedAt: Date
}

extension MemberRecord {
    /// Reads the columns by name: every household read checks membership through these rows.
    init(row: Row) throws {
        householdId = try row.decode(forColumn: Columns.householdId)
        userId = try row.decode(forColumn: Columns.userId)
        joinedAt = try row.decodeDate(forColumn: Columns.joinedAt)
    }
}
