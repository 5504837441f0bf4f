import Foundation
import PlatformKit
import ServiceKit

/// What to do with an event's photo on a change.
enum PhotoChange: Sendable {
    case keep
    case remove
    case set(Data, type: String)
}

/// An event as its owner sends it, checked for shape.
struct NewEvent: Sendable {
    var habitID: String
    var userID: String
    /// The day it is for; today in the owner's time zone when nil.
    var day: LocalDay?
    var comment: String?
    var latitude: Double?
    var longitude: Double?
    var photo: PhotoChange
    var idempotencyKey: String?
}

/// Which events a history page shows, already validated.
struct HistoryFilter: Sendable {
    /// Whose events: me, the people I follow, or both.
    var users: [String]
    /// Only the most recent event of each habit (the "friends" tab).
    var latestPerHabit = false
    var habitIDs: [String]?
    /// Text the comment must contain (case-insensitive for ASCII).
    var comment: String?
    /// Within ``Geo/nearRadius`` of this point.
    var near: (latitude: Double, longitude: Double)?
    /// Only events with a location (the map).
    var locatedOnly = false
}

/// Where a history page continues: after this day and event id (newest first).
struct HistoryKey: Codable, Sendable {
    var day: String
    var id: Int64
}

/// A habit with what its status needs.
struct HabitWithRecentDays: Sendable {
    var habit: HabitRecord
    /// Its events since the start of the status window: the day (days since 1970-01-01) and the event's id.
    var recentEvents: [(day: Int, id: Int64)]
    var hasEvents: Bool

    /// The days of ``recentEvents``, for the status.
    var recentDays: DaySet { DaySet(recentEvents.map { LocalDay(number: $0.day) }) }

    /// The first day of the status window for each owner whose today is in `todays`.
    static func windowStarts(_ todays: [String: LocalDay]) -> [String: LocalDay] {
        todays.mapValues { $0.adding(days: 1 - HabitProgress.statusWindowDays) }
    }

    /// The habit with its status as of `todays[owner]`, and the id of today's event once it is done.
    func withStatus(_ todays: [String: LocalDay]) -> HabitWithStatus {
        let today = todays[habit.userId] ?? LocalDay(number: 0)
        let progress = HabitProgress(weekdays: habit.schedule, start: habit.start, today: today, done: recentDays)
        return HabitWithStatus(
            habit: habit, status: progress.status(hasEvents: hasEvents),
            todayEventID: recentEvents.first { $0.day == today.number }?.id)
    }
}

/// A habit with its status as of today in its owner's time zone, and the id of today's event once it is done.
struct HabitWithStatus: Sendable {
    var habit: HabitRecord
    var status: HabitProgress.Status
    var todayEventID: Int64?
}
