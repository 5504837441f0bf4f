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
    /// A measurable habit's daily target in thousandths (``Amounts``); nil for a yes/no habit.
    var targetMilli: Int64? = nil
    /// A measurable habit's unit ("l", "pages").
    var unit: String? = nil
    /// The reminder's local time, minutes after midnight; nil for none.
    var reminderMinute: Int? = nil
    /// Archived habits leave today's list, the following list and reminders; their history stays.
    var archivedAt: Date? = nil
    /// The owner's manual order (0 first); nil until they order their habits, then after the ordered ones.
    var sortOrder: Int? = nil

    var schedule: Weekdays { Weekdays(bits: weekdays) }
    var start: LocalDay { LocalDay(startDate) ?? LocalDay(number: 0) }
    var doneRule: DoneRule { DoneRule(target: targetMilli) }

    /// Due on `day`: scheduled that weekday and started (the stored start date compared as text, as SQL did).
    func isDue(on day: LocalDay) -> Bool { schedule.contains(day) && startDate <= day.description }
}
