import Foundation
import PlatformKit

/// When a recurring bill comes round, like Splitwise's repeating expenses: monthly on a day from 1 to 28 or on the
/// month's last day, weekly on a weekday, or every so many days from its first day.
enum BillSchedule: Equatable, Sendable {
    /// Day 1-28 of every month; 31 stands for the last day (clamped to the month's length).
    case monthly(day: Int)
    /// An ISO weekday, 1 = Monday ... 7 = Sunday.
    case weekly(weekday: Int)
    /// Every `n` days.
    case everyDays(Int)

    static let lastDay = 31

    /// The first day of the schedule on or after `start`.
    func first(onOrAfter start: LocalDay) -> LocalDay {
        switch self {
        case .monthly(let day):
            let thisMonth = start.inMonth(offset: 0, day: day)
            return thisMonth >= start ? thisMonth : start.inMonth(offset: 1, day: day)
        case .weekly(let weekday): return start.adding(days: (weekday - start.isoWeekday + 7) % 7)
        case .everyDays: return start
        }
    }

    /// The day after `day`, one of its days, comes round again.
    func next(after day: LocalDay) -> LocalDay {
        switch self {
        case .monthly(let dayOfMonth): day.inMonth(offset: 1, day: dayOfMonth)
        case .weekly: day.adding(days: 7)
        case .everyDays(let days): day.adding(days: days)
        }
    }

    /// What a job on `today` does with a schedule whose next day is `nextOn`: the day to make a bill for (nil when
    /// `nextOn` is still to come), and the next day after it. After downtime only the latest missed day is made,
    /// never a backlog of them.
    func due(nextOn: LocalDay, today: LocalDay) -> (make: LocalDay?, nextOn: LocalDay) {
        guard nextOn <= today else { return (nil, nextOn) }
        var (latest, following) = (nextOn, next(after: nextOn))
        while following <= today { (latest, following) = (following, next(after: following)) }
        return (latest, following)
    }

    /// Checks the schedule a client sent (`schedule.*` fields).
    static func make(kind: String, dayOfMonth: Int?, lastDay: Bool?, weekday: Int?, every: Int?) throws
        -> BillSchedule
    {
        switch kind {
        case "monthly":
            if lastDay == true, dayOfMonth == nil { return .monthly(day: Self.lastDay) }
            guard let dayOfMonth, (1...28).contains(dayOfMonth), lastDay != true else {
                throw HouseholdError.invalidField(
                    "schedule.dayOfMonth", "must be a day from 1 to 28, or leave it out and set lastDay.")
            }
            return .monthly(day: dayOfMonth)
        case "weekly":
            guard let weekday, (1...7).contains(weekday) else {
                throw HouseholdError.invalidField(
                    "schedule.weekday", "must be a weekday from 1 (Monday) to 7 (Sunday).")
            }
            return .weekly(weekday: weekday)
        case "everyDays":
            guard let every, (1...365).contains(every) else {
                throw HouseholdError.invalidField("schedule.every", "must be a number of days from 1 to 365.")
            }
            return .everyDays(every)
        default:
            throw HouseholdError.invalidField("schedule.kind", "must be monthly, weekly or everyDays.")
        }
    }

    /// The stored columns: kind and its one number.
    var stored: (kind: String, value: Int) {
        switch self {
        case .monthly(let day): ("monthly", day)
        case .weekly(let weekday): ("weekly", weekday)
        case .everyDays(let days): ("everyDays", days)
        }
    }

    /// The schedule from its stored columns.
    init(kind: String, value: Int) {
        switch kind {
        case "weekly": self = .weekly(weekday: value)
        case "everyDays": self = .everyDays(value)
        default: self = .monthly(day: value)
        }
    }
}
