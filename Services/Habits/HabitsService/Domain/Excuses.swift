import PlatformKit

/// Skipped days and pauses: due days that neither break a streak nor count (Loop Habit Tracker's "skip"). A done day
/// still counts as done, paused or not.
enum Excuses {
    /// A pause covers at most a year, and a habit keeps at most this many pauses, so the days they excuse stay few.
    static let maximumPauseDays = 366
    static let maximumPauses = 100

    /// Checks a pause `from ... to` (inclusive): in order, at most a year, within 2000-01-01 ... a year from today.
    static func checkPause(from: LocalDay, to: LocalDay, today: LocalDay) throws {
        guard from <= to else { throw HabitsError.invalidField("to", "must not be before from.") }
        guard to.number - from.number < maximumPauseDays else {
            throw HabitsError.invalidField("to", "a pause may cover at most \(maximumPauseDays) days.")
        }
        guard from >= HabitsLimits.earliestDay, to <= today.adding(days: 366) else {
            throw HabitsError.invalidField("from", "must be from 2000-01-01 to a year from today.")
        }
    }

    /// A skip is for a day that has come or is coming within a year, from 2000-01-01.
    static func checkSkip(_ day: LocalDay, today: LocalDay) throws {
        guard day >= HabitsLimits.earliestDay, day <= today.adding(days: 366) else {
            throw HabitsError.invalidField("date", "must be from 2000-01-01 to a year from today.")
        }
    }

    /// The skipped days and every day of the pauses, as one set.
    static func days(skips: [LocalDay], pauses: [(from: LocalDay, to: LocalDay)]) -> DaySet {
        var days = skips
        for pause in pauses where pause.from <= pause.to {
            days.append(contentsOf: (pause.from.number...pause.to.number).map(LocalDay.init(number:)))
        }
        return DaySet(days)
    }
}

/// Bounds shared by the habits' dates.
enum HabitsLimits {
    /// The earliest start, skip or pause: statistics walk every day from the start, so it is bounded.
    static let earliestDay = LocalDay("2000-01-01")!
}
