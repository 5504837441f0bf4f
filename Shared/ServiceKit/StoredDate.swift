import Foundation
import GRDB
import GRDBSQLite
import PlatformKit

/// A date column read the fast way: the text GRDB writes (`yyyy-MM-dd HH:mm:ss.SSS`, UTC) is turned into a `Date`
/// with integer arithmetic; any other stored form goes through GRDB's own `Date` decoding, so the result is always
/// the date GRDB would have read.
///
/// GRDB builds every `Date` through Foundation's Gregorian calendar, about half a microsecond a value: a message page
/// reads 50 of them, 3% of the messaging service's page, and they were the largest single item of a chore's decoding
/// (docs/architecture.md, "Why the hot paths look this way").
public struct StoredDate: DatabaseValueConvertible, StatementColumnConvertible, Sendable {
    /// The date read.
    public var date: Date

    /// Wraps `date`.
    public init(_ date: Date) {
        self.date = date
    }

    /// Written as GRDB writes a `Date`.
    public var databaseValue: DatabaseValue { date.databaseValue }

    /// The stored text's date, or GRDB's reading of any other value.
    public static func fromDatabaseValue(_ value: DatabaseValue) -> StoredDate? {
        if case .string(var text) = value.storage, let date = text.withUTF8(parse) { return StoredDate(date) }
        return Date.fromDatabaseValue(value).map(StoredDate.init)
    }

    /// Read from the statement's text in place (rows GRDB fetches take this way), or as GRDB reads a `Date`.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT,
            let text = sqlite3_column_text(sqliteStatement, index),
            let date = Self.parse(
                UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index))))
        {
            self.init(date)
        } else if let date = Date(sqliteStatement: sqliteStatement, index: index) {
            self.init(date)
        } else {
            return nil
        }
    }

    /// Reads exactly `yyyy-MM-dd HH:mm:ss.SSS` with every field in range, from 1583 on; `nil` for anything else:
    /// GRDB's calendar rolls an out-of-range field over, counts days before October 1582 as the Julian calendar did,
    /// and reads other forms, so those are left to it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.count == 23, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: ".")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = Int(bytes[index]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), year > 1582, let month = number(5, 2), let dayOfMonth = number(8, 2),
            let day = LocalDay(year: year, month: month, day: dayOfMonth),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let millisecond = number(20, 3), hour < 24, minute < 60, second < 60
        else { return nil }
        // Summed as Foundation's Gregorian calendar sums them (the day's start, then the seconds into the day with
        // their fraction), so the result has the same bits.
        let dayStart = day.number * 86_400 - 978_307_200
        let secondsInDay = Double(hour * 3_600 + minute * 60 + second) + Double(millisecond * 1_000_000) / 1e9
        return Date(timeIntervalSinceReferenceDate: Double(dayStart) + secondsInDay)
    }
}

extension Row {
    /// The date in `column`, read as ``StoredDate`` reads it; throws as GRDB's `Date` decoding would.
    public func decodeDate(forColumn column: some ColumnExpression) throws -> Date {
        try decode(StoredDate.self, forColumn: column).date
    }

    /// The date in `column`, or `nil` for `NULL`.
    public func decodeDateIfPresent(forColumn column: some ColumnExpression) throws -> Date? {
        try decode(StoredDate?.self, forColumn: column)?.date
    }

    /// The date at `index`, read as ``StoredDate`` reads it; throws as GRDB's `Date` decoding would.
    public func decodeDate(atIndex index: Int) throws -> Date {
        try decode(StoredDate.self, atIndex: index).date
    }

    /// The date at `index`, or `nil` for `NULL`.
    public func decodeDateIfPresent(atIndex index: Int) throws -> Date? {
        try decode(StoredDate?.self, atIndex: index)?.date
    }
}

extension Date {
    /// The instant as SQLite keeps it (GRDB writes `yyyy-MM-dd HH:mm:ss.SSS`, to the nearest millisecond): what the
    /// PostgreSQL schema stores, so that both give back the same instant.
    public var storedMilliseconds: Int64 {
        Int64(((timeIntervalSinceReferenceDate + 978_307_200) * 1_000).rounded())
    }

    /// The instant `milliseconds` after 1970, with the bits GRDB's reading of the same stored text has
    /// (``StoredDate``: the day's start, then the seconds into the day with their fraction).
    public init(storedMilliseconds milliseconds: Int64) {
        let (seconds, millisecond) = (milliseconds.floorDivided(by: 1_000), milliseconds.floorModulo(1_000))
        let day = seconds.floorDivided(by: 86_400)
        let secondsInDay = Double(seconds - day * 86_400) + Double(millisecond * 1_000_000) / 1e9
        self.init(timeIntervalSinceReferenceDate: Double(day * 86_400 - 978_307_200) + secondsInDay)
    }
}

// Floor division: instants before 1970 round towards the past.
extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }

    fileprivate func floorModulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}

extension Date {
    /// Whole milliseconds since 1970: how the PostgreSQL stores of social and habits, and every outbox, keep instants.
    public var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The instant `millisecondsSince1970` after 1970.
    public init(millisecondsSince1970: Int64) {
        self.init(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }
}
