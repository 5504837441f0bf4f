import Foundation
import GRDB
import PlatformKit

/// A row of `habits`.
struct HabitRecord: HabitsTable {
    static let databaseTableName = "habits"

    enum Columns {
        static let id = Column("id")
        static let userId = Column("user_id")
        static let title = Column("title")
        static let reason = Column("reason")
        static let weekdays = Column("weekdays")
        static let startDate = Column("start_date")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: String
    var userId: String
    var title: String
    var reason: String
    var weekdays: Int
    var startDate: String
    var createdAt: Date
    var updatedAt: Date

    var schedule: Weekdays { Weekdays(bits: weekdays) }
    var start: LocalDay { LocalDay(startDate) ?? LocalDay(number: 0) }
}

extension HabitRecord {
    /// Reads the columns by name: today's list and every list of habits decode these, and the `Codable` path
    /// through ``SnakeCaseColumns`` costs several times more.
    init(row: Row) {
        id = row[Columns.id]
        userId = row[Columns.userId]
        title = row[Columns.title]
        reason = row[Columns.reason]
        weekdays = row[Columns.weekdays]
        startDate = row[Columns.startDate]
        createdAt = row[Columns.createdAt]
        updatedAt = row[Columns.updatedAt]
    }
}
