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
    /// A measurable habit's value for the day, in thousandths (``EventRules/checkValue(_:target:)``).
    var value: Int64? = nil
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
    /// Its events since the start of the status window: the day (days since 1970-01-01), the event's id and its
    /// value in thousandths (0 when it has none).
    var recentEvents: [(day: Int, id: Int64, value: Int64)]
    var hasEvents: Bool
    /// Its skipped days and pauses (days since 1970-01-01) that reach into the status window.
    var skips: [Int] = []
    var pauses: [(from: Int, to: Int)] = []

    /// The done days of ``recentEvents`` (``DoneRule``), for the status.
    var recentDays: DaySet {
        let rule = habit.doneRule
        return DaySet(recentEvents.filter { rule.isDone(value: $0.value) }.map { LocalDay(number: $0.day) })
    }

    var excused: DaySet {
        Excuses.days(
            skips: skips.map(LocalDay.init(number:)),
            pauses: pauses.map { (LocalDay(number: $0.from), LocalDay(number: $0.to)) })
    }

    /// The first day of the status window for each owner whose today is in `todays`.
    static func windowStarts(_ todays: [String: LocalDay]) -> [String: LocalDay] {
        todays.mapValues { $0.adding(days: 1 - HabitProgress.statusWindowDays) }
    }

    /// The habit with its status as of `todays[owner]`, and today's event once there is one.
    func withStatus(_ todays: [String: LocalDay]) -> HabitWithStatus {
        let today = todays[habit.userId] ?? LocalDay(number: 0)
        let excused = self.excused
        let progress = HabitProgress(
            weekdays: habit.schedule, start: habit.start, today: today, done: recentDays, excused: excused)
        let event = recentEvents.first { $0.day == today.number }
        return HabitWithStatus(
            habit: habit, status: progress.status(hasEvents: hasEvents), todayEventID: event?.id,
            todayValue: event.map(\.value), doneToday: event.map { habit.doneRule.isDone(value: $0.value) } ?? false,
            excusedToday: excused.contains(today))
    }
}

/// A habit with its status as of today in its owner's time zone, and the id of today's event once it is done.
struct HabitWithStatus: Sendable {
    var habit: HabitRecord
    var status: HabitProgress.Status
    var todayEventID: Int64?
    /// Today's value so far (a measurable habit), in thousandths.
    var todayValue: Int64? = nil
    /// Today's event meets the habit's ``DoneRule``.
    var doneToday = false
    /// Today is skipped or paused.
    var excusedToday = false
}

/// A habit with every day its statistics need.
struct HabitDays: Sendable {
    var habit: HabitRecord
    /// The days done (``DoneRule``).
    var done: DaySet
    /// Skipped days and the days of pauses.
    var excused: DaySet
}

/// A pause of a habit: due days `from ... to` (inclusive) neither count nor break a streak.
struct PauseRecord: Sendable, Equatable {
    var id: Int64
    var habitId: String
    var from: String
    var to: String
}

/// A reminder the job claimed: the habit and the local day it is for.
struct ClaimedReminder: Sendable {
    var habit: HabitRecord
    var day: LocalDay
}
