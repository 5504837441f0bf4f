import Foundation
import GRDB
import Testing

@testable import ServiceKit

/// ``SnakeCaseColumns`` records decode to what GRDB's own decoder makes of the same row, value for value and
/// failure for failure, whether ``SnakeCaseRowDecoder`` reads them or leaves them to GRDB.
@Suite struct SnakeCaseRowDecoderTests {
    enum Mood: String, Codable, DatabaseValueConvertible { case calm, busy }
    enum Plain: String, Codable { case one, two }

    /// Every kind of plain column the services' records have, present and absent.
    struct Everything: Codable, Equatable, SnakeCaseColumns {
        var id: Int64
        var userId: String
        var displayName: String?
        var emailVerified: Bool
        var points: Int
        var quietStartMinute: Int?
        var lastReadId: Int64?
        var latitude: Double
        var longitude: Double?
        var createdAt: Date
        var readAt: Date?
        var bytes: Data
        var thumbnail: Data?
        var mood: Mood
        var previousMood: Mood?
    }

    /// Needs what only GRDB's decoder does: a Codable enum that is not a database value, a JSON column, a
    /// name with a digit.
    struct LeftToGRDB: Codable, Equatable, SnakeCaseColumns {
        var id: Int64
        var plain: Plain
        var tags: [String]
        var line2: String
    }

    /// Decodes a column that is not in the row, which GRDB reads as absent.
    struct MissingColumn: Codable, Equatable, SnakeCaseColumns {
        var id: Int64
        var nickname: String?
    }

    struct Strict: Codable, Equatable, SnakeCaseColumns {
        var id: Int64
        var displayName: String
    }

    /// Notes which decoder made it.
    struct Probe: Codable, SnakeCaseColumns {
        enum CodingKeys: String, CodingKey { case id }
        var id: Int64
        var decodedByRowDecoder = false

        init(from decoder: any Decoder) throws {
            id = try decoder.container(keyedBy: CodingKeys.self).decode(Int64.self, forKey: .id)
            decodedByRowDecoder = decoder is SnakeCaseRowDecoder<Probe>
        }
    }

    static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE everything (
                        id INTEGER, user_id TEXT, display_name TEXT, email_verified INTEGER, points INTEGER,
                        quiet_start_minute INTEGER, last_read_id INTEGER, latitude REAL, longitude REAL,
                        created_at, read_at, bytes BLOB, thumbnail BLOB, mood TEXT, previous_mood TEXT);
                    INSERT INTO everything VALUES
                        (1, 'u1', 'Ann / 漢字 😀', 1, 3, 480, 9007199254740993, 48.8566, 2.3522,
                         '2026-11-27 12:53:34.123', '2026-11-28 00:00:00.000', x'00ff10', x'', 'calm', 'busy'),
                        (2, 'u2', NULL, 0, -7, NULL, NULL, -0.0, NULL,
                         '1970-01-01 00:00:00.000', NULL, x'', NULL, 'busy', NULL),
                        (3, 'u3', 'plain', 1, 0, 0, 0, 1e300, -1e-300, 1795784030.5, 0, 'text as blob', 'x', 'calm', NULL);
                    CREATE TABLE left_to_grdb (id INTEGER, plain TEXT, tags TEXT, line2 TEXT);
                    INSERT INTO left_to_grdb VALUES (1, 'two', '["a","b/c"]', 'x'), (2, 'one', '[]', '');
                    CREATE TABLE strict (id INTEGER, display_name TEXT, email_verified INTEGER);
                    INSERT INTO strict VALUES (1, 'Ann', 1), (2, NULL, 0);
                    CREATE TABLE broken (id INTEGER, user_id TEXT, display_name TEXT, email_verified INTEGER,
                        points INTEGER, quiet_start_minute INTEGER, last_read_id INTEGER, latitude REAL,
                        longitude REAL, created_at TEXT, read_at TEXT, bytes BLOB, thumbnail BLOB, mood TEXT,
                        previous_mood TEXT);
                    INSERT INTO broken VALUES
                        (1, 'u', NULL, 1, 1, NULL, NULL, 0, NULL, 'not a date', NULL, x'', NULL, 'calm', NULL),
                        (2, 'u', NULL, 1, 1, NULL, NULL, 0, NULL, '2026-11-27', NULL, x'', NULL, 'angry', NULL);
                    """)
        }
        return queue
    }

    /// Each row decoded both ways (statement rows, as `fetchAll` reads them, and copied rows).
    func expectSameAsGRDB<Record: FetchableRecord & Decodable & Equatable & SnakeCaseColumns>(
        _ type: Record.Type, _ sql: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let queue = try Self.database()
        let fetched = try queue.read { db in try Record.fetchAll(db, sql: sql) }
        let rows = try queue.read { db in try Row.fetchAll(db, sql: sql) }
        #expect(!rows.isEmpty, sourceLocation: sourceLocation)
        #expect(
            fetched == (try rows.map { try FetchableRecordDecoder().decode(Record.self, from: $0) }),
            sourceLocation: sourceLocation)
        #expect(
            try rows.map { try Record(row: $0) } == fetched,
            sourceLocation: sourceLocation)
    }

    @Test func plainColumnsDecodeAsGRDBDecodesThem() throws {
        try expectSameAsGRDB(Everything.self, "SELECT * FROM everything ORDER BY id")
        // The fast decoder really is the one reading them.
        let row = try Self.database().read { db in try Row.fetchOne(db, sql: "SELECT * FROM everything")! }
        let decoder = SnakeCaseRowDecoder<Everything>(row: row)
        let record = try Everything(from: decoder)
        #expect(!decoder.notReproduced.isSet)
        #expect(record.displayName == "Ann / 漢字 😀" && record.lastReadId == 9_007_199_254_740_993)
    }

    @Test func fetchingASnakeCaseRecordGoesThroughTheRowDecoder() throws {
        let probes = try Self.database().read { db in try Probe.fetchAll(db, sql: "SELECT id FROM everything") }
        #expect(probes.map(\.decodedByRowDecoder) == [true, true, true])
    }

    @Test func whatItDoesNotReproduceIsLeftToGRDB() throws {
        try expectSameAsGRDB(LeftToGRDB.self, "SELECT * FROM left_to_grdb ORDER BY id")
        try expectSameAsGRDB(MissingColumn.self, "SELECT id FROM everything ORDER BY id")
        let row = try Self.database().read { db in try Row.fetchOne(db, sql: "SELECT * FROM left_to_grdb")! }
        #expect(throws: (any Error).self) { try LeftToGRDB(from: SnakeCaseRowDecoder<LeftToGRDB>(row: row)) }
    }

    /// The error a decoding throws, in words; `nil` when it decodes.
    func failure(_ decode: () throws -> some Any) -> String? {
        do {
            _ = try decode()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func rowsThatDoNotFitFailAsWithGRDB() throws {
        let queue = try Self.database()
        let nullName = try queue.read { db in try Row.fetchOne(db, sql: "SELECT * FROM strict WHERE id = 2")! }
        let ours = failure { try Strict(row: nullName) }
        #expect(ours != nil)
        #expect(ours == failure { try FetchableRecordDecoder().decode(Strict.self, from: nullName) })
        for id in [1, 2] {  // a text that is no date; a mood that is none
            let row = try queue.read { db in
                try Row.fetchOne(db, sql: "SELECT * FROM broken WHERE id = ?", arguments: [id])!
            }
            let ours = failure { try Everything(row: row) }
            #expect(ours != nil)
            #expect(ours == failure { try FetchableRecordDecoder().decode(Everything.self, from: row) })
        }
    }

    @Test func columnNamesAreTheKeysInSnakeCase() {
        enum Keys: String, CodingKey { case id, userId, lastReadID, avatarUrl, line2, Upper, _private, café }
        #expect(SnakeCaseNames.snakeCase(Keys.id.stringValue) == "id")
        #expect(SnakeCaseNames.snakeCase(Keys.userId.stringValue) == "user_id")
        #expect(SnakeCaseNames.snakeCase(Keys.lastReadID.stringValue) == "last_read_i_d")
        #expect(SnakeCaseNames.snakeCase(Keys.avatarUrl.stringValue) == "avatar_url")
        for unusual in [Keys.line2, .Upper, ._private, .café] {
            #expect(SnakeCaseNames.snakeCase(unusual.stringValue) == nil)
        }
        // GRDB's conversion back gives the key again.
        for key in [Keys.userId, .lastReadID, .avatarUrl] {
            #expect(SnakeCaseNames.camelCase(SnakeCaseNames.snakeCase(key.stringValue)!) == key.stringValue)
        }
    }
}
