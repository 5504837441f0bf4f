import Foundation
import GRDB

/// A row of `completions`: the history, kept when a chore is edited or deleted.
struct CompletionRecord: HouseholdTable {
    static let databaseTableName = "completions"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let choreId = Column("chore_id")
        static let choreName = Column("chore_name")
        static let userId = Column("user_id")
        static let points = Column("points")
        static let dueOn = Column("due_on")
        static let completedOn = Column("completed_on")
        static let completedAt = Column("completed_at")
        static let note = Column("note")
    }

    var id: String
    var householdId: String
    var choreId: String
    var choreName: String
    var userId: String
    var points: Int
    var dueOn: String?
    var completedOn: String
    var completedAt: Date
    var note: String?
}
