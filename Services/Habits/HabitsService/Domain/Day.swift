import Foundation

/// A calendar day in a user's time zone, counted in days since 1970-01-01 and written `YYYY-MM-DD`.
///
/// Habits are due on days, not instants; counting days as integers makes 5 years of statistics a loop
/// over small numbers instead of calendar arithmetic.
struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    var number: Int

    init(number: Int) {
        self.number = number
    }

    /// The day `instant` falls on in `timeZone` (its offset at that instant, so DST days are right).
    init(_ instant: Date, in timeZone: TimeZone) {
        let seconds = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        self.number = Int((seconds / 86_400).rounded(.down))
    }

    /// Parses `YYYY-MM-DD`; `nil` for anything else, including days that do not exist.
    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...Self.length(ofMonth: month, year: year)).contains(day)
        else { return nil }
        self.number = Self.daysFromCivil(year: year, month: month, day: day)
    }

    /// 1 = Monday ... 7 = Sunday (ISO 8601); 1970-01-01 was a Thursday.
    var isoWeekday: Int { ((number % 7 + 7 + 3) % 7) + 1 }

    func adding(days: Int) -> Day { Day(number: number + days) }

    /// The Monday that starts this day's ISO week.
    var weekStart: Day { adding(days: 1 - isoWeekday) }

    var description: String {
        let (year, month, day) = civil
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    static func < (lhs: Day, rhs: Day) -> Bool { lhs.number < rhs.number }

    // Howard Hinnant's days_from_civil / civil_from_days: exact for the proleptic Gregorian calendar.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private var civil: (Int, Int, Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func length(ofMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
