import Foundation
import PlatformKit

/// A habit's reminder: a local time of day, sent on due days in the owner's time zone (as Loop Habit Tracker and
/// Streaks do), unless the day is already done, skipped or paused.
enum ReminderRules {
    /// A reminder not sent within an hour of its time (the service was down) is dropped, not sent late.
    static let lateness: TimeInterval = 3_600

    /// Minutes after midnight from `HH:MM` (00:00 ... 23:59).
    static func minute(_ text: String) throws -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute)
        else { throw HabitsError.invalidField("reminder", "time must be a time of day as HH:MM (00:00 to 23:59).") }
        return hour * 60 + minute
    }

    /// `HH:MM` of minutes after midnight.
    static func text(_ minute: Int) -> String {
        let (hour, minute) = (minute / 60, minute % 60)
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// The instant `minute` past midnight on `day` in `zone`, counted on the wall clock: on a day whose clocks
    /// change it is the local time shown then (a time skipped by a spring-forward falls just after the gap).
    static func instant(of day: LocalDay, minute: Int, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let components = DateComponents(
            year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)
        return calendar.date(from: components)
            ?? day.start(in: zone).addingTimeInterval(TimeInterval(minute * 60))
    }

    /// The local day whose reminder time fell in the last hour up to `now` (today's, or yesterday's when the hour
    /// crosses midnight), if any.
    static func dueDay(now: Date, minute: Int, zoneName: String) -> LocalDay? {
        let zone = TimeZone(identifier: zoneName) ?? .gmt
        let today = LocalDay(now, in: zone)
        for day in [today, today.adding(days: -1)] {
            let at = instant(of: day, minute: minute, in: zone)
            if at <= now, now.timeIntervalSince(at) < lateness { return day }
        }
        return nil
    }
}

extension ReminderRules {
    /// The day `habit`'s reminder is due for at `now` in its owner's zone: a day it is due (scheduled, started),
    /// not archived, with its reminder time within the last hour.
    static func day(for habit: HabitRecord, now: Date, zoneName: String) -> LocalDay? {
        guard habit.archivedAt == nil, let minute = habit.reminderMinute,
            let day = dueDay(now: now, minute: minute, zoneName: zoneName), habit.isDue(on: day)
        else { return nil }
        return day
    }

    /// Quiet when the day is already done (`doneValue`: the day's event's value, nil without one) or skipped or
    /// paused.
    static func remind(doneValue: Int64?, rule: DoneRule, excused: Bool) -> Bool {
        if let doneValue, rule.isDone(value: doneValue) { return false }
        return !excused
    }
}
