import Foundation
import GRDB

/// A row of `activity`.
struct ActivityRecord: HouseholdTable {
    static let databaseTableName = "activity"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let kind = Column("kind")
        static let actorId = Column("actor_id")
        static let subject = Column("subject")
        static let createdAt = Column("created_at")
    }

    var id: Int64?
    var householdId: String
    var kind: String
    var actorId: String
    var subject: String
    var createdAt: Date
}
