import Foundation
import GRDB
import ServiceKit

/// A row of `households`.
struct HouseholdRecord: HouseholdTable {
    static let databaseTableName = "households"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let timeZone = Column("time_zone")
        static let createdBy = Column("created_by")
        static let noteLifetimeDays = Column("note_lifetime_days")
        static let createdAt = Column("created_at")
    }

    var id: String
    var name: String
    var timeZone: String
    var createdBy: String
    var noteLifetimeDays: Int
    var createdAt: Date
}

extension HouseholdRecord {
    /// Reads the columns by name: every household read decodes its household.
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        name = try row.decode(forColumn: Columns.name)
        timeZone = try row.decode(forColumn: Columns.timeZone)
        createdBy = try row.decode(forColumn: Columns.createdBy)
        noteLifetimeDays = try row.decode(forColumn: Columns.noteLifetimeDays)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
    }
}
