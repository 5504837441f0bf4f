import Foundation

/// A calendar day in someone's time zone (a household's, a user's), written `YYYY-MM-DD`: chores and habits
/// are due on days, not instants.
///
/// Counted as days since 1970-01-01 so that years of statistics are loops over small integers, not calendar
/// arithmetic; the conversions are Howard Hinnant's exact proleptic-Gregorian algorithms.
public struct LocalDay: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// Days since 1970-01-01 (negative before).
    public var number: Int

    /// The day `number` days after 1970-01-01.
    public init(number: Int) {
        self.number = number
    }

    /// The day with these calendar parts; `nil` for a day that does not exist (2023-02-29) or a year outside 1-9999.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...Self.length(ofMonth: month, year: year)).contains(day)
        else { return nil }
        self.number = Self.daysFromCivil(year: year, month: month, day: day)
    }

    /// Parses exactly `YYYY-MM-DD` in ASCII digits; `nil` for anything else, including days that do not exist.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The day `instant` falls on in `timeZone` (its offset at that instant, so days around DST changes are right).
    public init(_ instant: Date, in timeZone: TimeZone) {
        let seconds = instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant))
        self.number = Int((seconds / 86_400).rounded(.down))
    }

    /// The calendar year, 1-9999 for days that came from text or parts.
    public var year: Int { civil.year }
    /// The month, 1-12.
    public var month: Int { civil.month }
    /// The day of the month, 1-31.
    public var day: Int { civil.day }

    /// 1 = Monday ... 7 = Sunday (ISO 8601); 1970-01-01 was a Thursday.
    public var isoWeekday: Int { ((number % 7 + 7 + 3) % 7) + 1 }

    /// The Monday that starts this day's ISO week.
    public var weekStart: LocalDay { adding(days: 1 - isoWeekday) }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDay { LocalDay(number: number + days) }

    /// Days from this day to `other` (negative when `other` is earlier).
    public func days(until other: LocalDay) -> Int { other.number - number }

    /// Day `day` of the month `months` after this day's month, clamped to that month's length (the 31st of
    /// January plus one month is the 28th or 29th of February).
    public func inMonth(offset months: Int, day: Int) -> LocalDay {
        let index = (self.year * 12 + self.month - 1) + months
        let (targetYear, targetMonth) = (index / 12, index % 12 + 1)
        let clamped = min(max(day, 1), Self.length(ofMonth: targetMonth, year: targetYear))
        return LocalDay(number: Self.daysFromCivil(year: targetYear, month: targetMonth, day: clamped))
    }

    /// The first instant of this day in `timeZone`.
    public func start(in timeZone: TimeZone) -> Date {
        let midnightUTC = Date(timeIntervalSince1970: Double(number) * 86_400)
        // The zone's offset at that midnight; a second pass settles days whose offset changes during the night.
        let first = midnightUTC.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: midnightUTC)))
        return midnightUTC.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: first)))
    }

    /// `YYYY-MM-DD`, written digit by digit: `String(format:)` went through Foundation's formatter, 5% of habits'
    /// today. Years outside 0-9999 (only from day numbers) keep `%04d`'s shape.
    public var description: String {
        let (year, month, day) = civil
        guard (0...9999).contains(year) else { return String(format: "%04d-%02d-%02d", year, month, day) }
        return String(unsafeUninitializedCapacity: 10) { text in
            func write(_ value: Int, digits: Int, at start: Int) {
                var rest = value
                for index in (start..<start + digits).reversed() {
                    text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
            }
            write(year, digits: 4, at: 0)
            text[4] = UInt8(ascii: "-")
            write(month, digits: 2, at: 5)
            text[7] = UInt8(ascii: "-")
            write(day, digits: 2, at: 8)
            return 10
        }
    }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool { lhs.number < rhs.number }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let day = LocalDay(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected a day as YYYY-MM-DD"))
        }
        self = day
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Its year, month and day, computed together (Howard Hinnant's days-to-civil algorithm).
    var civil: (year: Int, month: Int, day: Int) {
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

extension WallClock {
    /// Today in the time zone named `identifier` (an IANA name such as `Europe/Paris`); UTC when the name is
    /// unknown, so a zone removed from the system's database never stops a schedule.
    public func today(inZone identifier: String) -> LocalDay {
        LocalDay(now, in: TimeZone(identifier: identifier) ?? .gmt)
    }
}
