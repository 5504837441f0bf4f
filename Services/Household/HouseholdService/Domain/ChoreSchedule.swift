import PlatformKit

/// When a chore comes round again (Grocy's schedules, minus the hourly and adaptive ones).
enum ChoreSchedule: Equatable, Sendable {
    /// Once; done for good when completed.
    case once
    /// Every `n` days.
    case everyDays(Int)
    /// Weekly on the given ISO weekdays (1 = Monday ... 7 = Sunday).
    case weekly(Set<Int>)
    /// Monthly on a day of the month (clamped to short months).
    case monthly(day: Int)

    /// The first due day on or after `start`.
    func firstDue(onOrAfter start: LocalDay) -> LocalDay {
        switch self {
        case .once, .everyDays: return start
        case .weekly(let weekdays):
            return (0..<7).map { start.adding(days: $0) }.first { weekdays.contains($0.isoWeekday) } ?? start
        case .monthly(let day):
            let thisMonth = start.inMonth(offset: 0, day: day)
            return thisMonth >= start ? thisMonth : start.inMonth(offset: 1, day: day)
        }
    }

    /// The next due day after a completion on `completedOn` of the occurrence due on `dueOn`, or `nil` for
    /// a one-off chore. A late completion reschedules from the completion day, not the missed due day
    /// (what Chorma's users could not do); an early or on-time one keeps the rhythm of due days.
    func nextDue(afterDue dueOn: LocalDay, completedOn: LocalDay) -> LocalDay? {
        let base = max(dueOn, completedOn)
        switch self {
        case .once: return nil
        case .everyDays(let days): return base.adding(days: days)
        case .weekly: return firstDue(onOrAfter: base.adding(days: 1))
        case .monthly(let day): return base.inMonth(offset: 1, day: day)
        }
    }

    /// Checks the parts of a schedule a client sent.
    static func make(kind: String, every: Int?, weekdays: [Int]?, dayOfMonth: Int?) throws -> ChoreSchedule {
        switch kind {
        case "once": return .once
        case "everyDays":
            guard let every, (1...365).contains(every) else {
                throw HouseholdError.invalidField("schedule.every", "must be a number of days from 1 to 365.")
            }
            return .everyDays(every)
        case "weekly":
            guard let weekdays, !weekdays.isEmpty, weekdays.allSatisfy({ (1...7).contains($0) }) else {
                throw HouseholdError.invalidField(
                    "schedule.weekdays", "must list weekdays from 1 (Monday) to 7 (Sunday).")
            }
            return .weekly(Set(weekdays))
        case "monthly":
            guard let dayOfMonth, (1...31).contains(dayOfMonth) else {
                throw HouseholdError.invalidField("schedule.dayOfMonth", "must be a day from 1 to 31.")
            }
            return .monthly(day: dayOfMonth)
        default:
            throw HouseholdError.invalidField("schedule.kind", "must be once, everyDays, weekly or monthly.")
        }
    }
}
