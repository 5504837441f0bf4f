import Foundation
import GRDB
import Testing

/// Checks a record's hand-written `init(row:)` (the hot reads' column-by-column decoding) against what GRDB's
/// `Codable` decoding makes of the same rows: the two must agree on every fetched row, so a column renamed or
/// read under the wrong name fails here. Records are compared by their JSON, as not all of them are `Equatable`.
/// Returns how many rows were compared (a check of no rows proves nothing).
@discardableResult
public func expectDecodedAsCodableWould<Record: FetchableRecord & Codable>(
    _ type: Record.Type, _ db: Database, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Int {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let rows = try Row.fetchAll(db, sql: sql)
    for row in rows {
        let byColumn = try encoder.encode(try Record(row: row))
        let byCodable = try encoder.encode(try FetchableRecordDecoder().decode(Record.self, from: row))
        #expect(
            String(decoding: byColumn, as: UTF8.self) == String(decoding: byCodable, as: UTF8.self), "\(row)",
            sourceLocation: sourceLocation)
    }
    #expect(!rows.isEmpty, "no rows for \(sql)", sourceLocation: sourceLocation)
    return rows.count
}
