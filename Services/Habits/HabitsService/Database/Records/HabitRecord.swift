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
