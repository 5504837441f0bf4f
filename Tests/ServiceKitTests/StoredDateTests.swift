import Foundation
import GRDB
import PlatformKit
import TestSupport
import Testing

@testable import ServiceKit

/// ``StoredDate`` reads every stored date to the same bits as GRDB's `Date` decoding, and fails where it fails.
@Suite struct StoredDateTests {
    func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(StoredDate.parse)
    }

    /// Each value in a row of its own, read back by GRDB as a `Date` and as a ``StoredDate``: from the statement
    /// (a cursor's rows, which records decode) and from a copied row's values (`Row.fetchAll`).
    func readBothWays(_ values: [DatabaseValue]) throws -> [(grdb: Date?, stored: Date?)] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, at)")
            for value in values { try db.execute(sql: "INSERT INTO t (at) VALUES (?)", arguments: [value]) }
            let sql = "SELECT at FROM t ORDER BY id"
            var fromStatement: [(Date?, Date?)] = []
            let cursor = try Row.fetchCursor(db, sql: sql)
            while let row = try cursor.next() {
                fromStatement.append(
                    (
                        (try? row.decode(Date?.self, atIndex: 0)) ?? nil,
                        (try? row.decodeDateIfPresent(atIndex: 0)) ?? nil
                    ))
            }
            let fromValues = try Row.fetchAll(db, sql: sql).map { row in
                (try? row.decodeDateIfPresent(forColumn: Column("at"))) ?? nil
            }
            #expect(fromStatement.count == fromValues.count)
            return zip(fromStatement, fromValues).map { read, fromValue in
                // Both ways read the same; when they do not, the test fails on a value that is neither GRDB's.
                (read.0, read.1 == fromValue ? read.1 : Date.distantFuture)
            }
        }
    }

    @Test(arguments: 0..<5, propertySeeds()) func datesGRDBWroteReadToTheSameBits(round: Int, seed: UInt64) throws {
        var generator = SplitMix64(seed: seed &+ UInt64(round))
        // Any millisecond from 1900 to 2200 (within a week of 2001 in one round: the sums round differently
        // there), plus the edges of days, months, leap years and the epochs.
        let range: ClosedRange<Int64> =
            round == 0 ? 977_702_400_000...978_912_000_000 : -2_208_988_800_000...7_258_118_400_000
        var dates = (0..<5_000).map { _ in
            Date(timeIntervalSince1970: Double(Int64.random(in: range, using: &generator)) / 1000)
        }
        dates += [
            "1970-01-01 00:00:00.000", "2001-01-01 00:00:00.000", "2000-02-29 23:59:59.999", "1900-02-28 12:00:00.001",
            "2024-12-31 23:59:59.500", "1969-12-31 23:59:59.999", "1583-01-01 00:00:00.000", "9999-12-31 23:59:59.999",
        ].map { try! #require(Date.fromDatabaseValue($0.databaseValue)) }
        let values = dates.map(\.databaseValue)
        // GRDB writes exactly the form StoredDate reads itself, so these are its fast path.
        #expect(
            values.allSatisfy { value in
                if case .string(let text) = value.storage { return parse(text) != nil }
                return false
            })
        let read = try readBothWays(values)
        let differing = read.filter {
            $0.grdb?.timeIntervalSinceReferenceDate.bitPattern != $0.stored?.timeIntervalSinceReferenceDate.bitPattern
        }
        #expect(differing.isEmpty, "\(differing.count) differ, among them \(differing.prefix(3))")
        #expect(read.allSatisfy { $0.grdb != nil })
    }

    @Test func otherFormsAreGRDBs() throws {
        let stored: [any DatabaseValueConvertible] = [
            "2024-05-06", "2024-05-06 07:08", "2024-05-06T07:08:09", "2024-05-06 07:08:09.1",
            "2024-05-06 07:08:09.123Z",
            // Out of range: GRDB's calendar rolls these over; StoredDate leaves them to it.
            "2024-02-30 00:00:00.000", "2023-02-29 10:00:00.000", "2024-13-01 00:00:00.000", "2024-01-01 24:00:00.000",
            "2024-01-01 00:60:00.000", "2024-01-01 00:00:60.000",
            // Before the Gregorian calendar: Julian days for GRDB's calendar.
            "0001-01-01 00:00:00.000", "1582-10-04 12:00:00.000", "1582-12-31 23:59:59.999",
            // Numbers are seconds since 1970; other text and blobs are no date.
            1_700_000_000.25, 1_700_000_000, "yesterday", "2024-05-06 07:08:09.12x", Data([1, 2, 3]),
            DatabaseValue.null,
        ]
        let texts = stored.map(\.databaseValue)
        for (value, read) in zip(texts, try readBothWays(texts)) {
            #expect(read.grdb == read.stored, "\(value)")
        }
        #expect(parse("2024-02-30 00:00:00.000") == nil)
        #expect(parse("1582-12-31 23:59:59.999") == nil)
    }

    @Test func aValueThatIsNoDateThrowsAsForDate() throws {
        let queue = try DatabaseQueue()
        try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'soon' AS at, NULL AS gone"))
            #expect(throws: (any Error).self) { try row.decodeDate(forColumn: Column("at")) }
            #expect(throws: (any Error).self) { try row.decodeDate(forColumn: Column("gone")) }
            #expect(throws: (any Error).self) { try row.decodeDate(atIndex: 0) }
            #expect(try row.decodeDateIfPresent(forColumn: Column("gone")) == nil)
            #expect(try row.decodeDateIfPresent(atIndex: 1) == nil)
        }
    }
}
