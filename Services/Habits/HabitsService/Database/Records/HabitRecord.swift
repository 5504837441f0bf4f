import Foundation
import GRDB
import PlatformKit
import ServiceKit

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

    /// Due on `day`: scheduled that weekday and started (the stored start date compared as text, as SQL did).
    func isDue(on day: LocalDay) -> Bool { schedule.contains(day) && startDate <= day.description }
}

extension HabitRecord {
    /// Reads the columns by name: today's list and every list of habits decode these, and the `Codable` path
    /// through ``SnakeCaseColumns`` costs several times more.
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        userId = try row.decode(forColumn: Columns.userId)
        title = try row.decode(forColumn: Columns.title)
        reason = try row.decode(forColumn: Columns.reason)
        weekdays = try row.decode(forColumn: Columns.weekdays)
        startDate = try row.decode(forColumn: Columns.startDate)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
        updatedAt = try row.decodeDate(forColumn: Columns.updatedAt)
    }
}
