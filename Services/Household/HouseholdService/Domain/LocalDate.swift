import Foundation
import PlatformKit

/// A calendar day in a household's time zone, written `YYYY-MM-DD` (chores are due on days, not instants).
struct LocalDate: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    var year: Int
    var month: Int
    var day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`; `nil` for anything else, including days that do not exist.
    init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard text.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
            let day = Int(parts[2])
        else { return nil }
        self.init(year: year, month: month, day: day)
        // The calendar rolls 2023-02-29 over to 1 March: a day exists only if it comes back unchanged.
        guard (1...12).contains(month), let date = Self.calendar.date(from: components),
            LocalDate(date, in: .gmt) == self
        else { return nil }
    }

    /// The day `instant` falls on in `timeZone`.
    init(_ instant: Date, in timeZone: TimeZone) {
        var calendar = Self.calendar
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// 1 = Monday ... 7 = Sunday (ISO 8601).
    var isoWeekday: Int {
        let weekday = Self.calendar.component(.weekday, from: noonUTC)
        return weekday == 1 ? 7 : weekday - 1
    }

    func adding(days: Int) -> LocalDate {
        LocalDate(Self.calendar.date(byAdding: .day, value: days, to: noonUTC) ?? noonUTC, in: .gmt)
    }

    /// The `day` of the month `months` after this one, clamped to that month's length.
    func inMonth(offset months: Int, day: Int) -> LocalDate {
        var first = LocalDate(year: year, month: month, day: 1).noonUTC
        first = Self.calendar.date(byAdding: .month, value: months, to: first) ?? first
        let length = Self.calendar.range(of: .day, in: .month, for: first)?.count ?? 28
        let start = LocalDate(first, in: .gmt)
        return LocalDate(year: start.year, month: start.month, day: min(day, length))
    }

    func days(until other: LocalDate) -> Int {
        Self.calendar.dateComponents([.day], from: noonUTC, to: other.noonUTC).day ?? 0
    }

    static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = LocalDate(text) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "expected YYYY-MM-DD"))
        }
        self = date
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private var components: DateComponents { DateComponents(year: year, month: month, day: day, hour: 12) }
    /// Noon UTC on this day: a fixed instant for day arithmetic, far from any DST edge.
    private var noonUTC: Date { Self.calendar.date(from: components) ?? Date(timeIntervalSince1970: 0) }

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()
}
