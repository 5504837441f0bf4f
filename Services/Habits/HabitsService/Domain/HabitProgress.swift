import Foundation
import PlatformKit

/// How a habit is going, counted over its due days only: a day the habit is not scheduled never breaks a
/// streak, lowers a rate or moves the strength score. Today counts once it has an event; until then it
/// is not yet missed. A skipped or paused due day is left out (it neither counts nor breaks a streak) unless it is
/// done anyway.
struct HabitProgress: Sendable {
    let weekdays: Weekdays
    let start: LocalDay
    let today: LocalDay
    /// Days that are done: any event for a yes/no habit, the target met for a measurable one (``DoneRule``).
    let done: DaySet
    /// Skipped days and the days of pauses (``Excuses``).
    var excused = DaySet([])

    /// Due days from `from` through `to` (clamped to start ... today), oldest first; today only if done; skipped or
    /// paused days only if done.
    func dueDays(from: LocalDay, to: LocalDay) -> [LocalDay] {
        let first = max(from, start)
        let last = min(to, today)
        guard first <= last else { return [] }
        var days: [LocalDay] = []
        for number in first.number...last.number {
            let day = LocalDay(number: number)
            if weekdays.contains(day) && (done.contains(day) || (day < today && !excused.contains(day))) {
                days.append(day)
            }
        }
        return days
    }

    // MARK: Status

    enum Status: String, Codable, Sendable {
        case onTrack = "on_track", behind, noEventsYet = "no_events_yet"
    }

    /// The window the status looks at, and the share of its due days that must be done to be on track.
    static let statusWindowDays = 28
    static let onTrackRate = 0.8

    /// No events ever: `no_events_yet`; else on track when at least 80% of the due days of the last 28
    /// days are done (a habit with no due day in the window yet is on track: nothing was missed).
    /// `done` needs only the window's days.
    func status(hasEvents: Bool) -> Status {
        guard hasEvents else { return .noEventsYet }
        let due = dueDays(from: today.adding(days: 1 - Self.statusWindowDays), to: today)
        guard !due.isEmpty else { return .onTrack }
        let completed = due.filter(done.contains).count
        return Double(completed) >= Self.onTrackRate * Double(due.count) ? .onTrack : .behind
    }

    // MARK: Statistics

    /// Loop Habit Tracker's score is an exponential moving average,
    /// `score = previous * m + value * (1 - m)` with `m = 0.5^(sqrt(frequency) / 13)`. Ours steps once per
    /// *due* day (value 1 if done, 0 if missed), so the frequency per step is 1 and `m = 0.5^(1/13)`: the
    /// weight of any day's outcome halves after 13 due days, and rest days leave the score unchanged.
    static let strengthHalfLife = 13.0
    static let strengthMultiplier = pow(0.5, 1 / strengthHalfLife)

    struct Summary: Sendable, Equatable {
        var dueDays: Int
        var completedDueDays: Int
        var completionRate: Double
        var currentStreak: Int
        var bestStreak: Int
        var strength: Double
        var strength30DaysAgo: Double
        /// Days in `from ... to` the habit was due but skipped or paused (and not done): left out of everything.
        var excusedDueDays: Int
    }

    /// Rate over `from ... to`; streaks and strength over the whole life of the habit.
    func summary(from: LocalDay, to: LocalDay) -> Summary {
        let inRange = dueDays(from: from, to: to)
        let completed = inRange.filter(done.contains).count
        var current = 0, best = 0, strength = 0.0, strengthBefore = 0.0
        let monthAgo = today.adding(days: -30)
        for day in dueDays(from: start, to: today) {
            let value = done.contains(day) ? 1.0 : 0.0
            strength = strength * Self.strengthMultiplier + value * (1 - Self.strengthMultiplier)
            if day <= monthAgo { strengthBefore = strength }
            current = value == 1 ? current + 1 : 0
            best = max(best, current)
        }
        return Summary(
            dueDays: inRange.count, completedDueDays: completed,
            completionRate: inRange.isEmpty ? 0 : Double(completed) / Double(inRange.count),
            currentStreak: current, bestStreak: best, strength: strength, strength30DaysAgo: strengthBefore,
            excusedDueDays: excusedDueDays(from: from, to: to))
    }

    /// Due days in `from ... to` (up to yesterday) that are skipped or paused and not done.
    func excusedDueDays(from: LocalDay, to: LocalDay) -> Int {
        let first = max(from, start)
        let last = min(to, today.adding(days: -1))
        guard first <= last, excused.count > 0 else { return 0 }
        return (first.number...last.number).map(LocalDay.init(number:)).filter {
            weekdays.contains($0) && excused.contains($0) && !done.contains($0)
        }.count
    }

    /// Completions per ISO week for the `weeks` weeks ending with this one, oldest first.
    func weeklyCompletions(weeks: Int) -> [(weekStart: LocalDay, completions: Int)] {
        let thisWeek = today.weekStart
        var counts: [Int: Int] = [:]
        for day in done.days { counts[day.weekStart.number, default: 0] += 1 }
        return (0..<weeks).reversed().map { back in
            let week = thisWeek.adding(days: -7 * back)
            return (week, counts[week.number] ?? 0)
        }
    }
}
