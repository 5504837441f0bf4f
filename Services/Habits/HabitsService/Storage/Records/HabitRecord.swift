import Foundation
import PlatformKit

/// A row of `habits`.
struct HabitRecord: Codable, Sendable {
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
