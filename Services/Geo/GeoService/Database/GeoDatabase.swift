import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The geo service's storage: the only place that knows SQL. Each method is one transaction.
struct GeoDatabase: Sendable {
    let writer: any DatabaseWriter
    /// The secret of the per-pack pseudonyms (made by the v2 migration, never leaves the database).
    let pseudonymKey: Data
    /// A user keeps at most this many pins (a travel map, not a GPS log).
    static let maximumPinsPerUser = 10_000

    /// Opens the database, migrates it, and loads the gazetteer when its table is still empty.
    init(_ location: DatabaseLocation, gazetteer: URL? = nil) throws {
        self.writer = try ServiceDatabase.open(location, migrator: GeoMigrations.migrator)
        self.pseudonymKey = try writer.read { db in
            try Data.fetchOne(db, sql: "SELECT key FROM pseudonym_key WHERE id = 1") ?? Data()
        }
        if let gazetteer { try Self.loadGazetteer(from: gazetteer, into: writer) }
    }

    // MARK: Pins

    func createPin(_ pin: PinRow) async throws -> PinRow {
        try await writer.write { db in
            let count = try Int.fetchOne(
                db, sql: "SELECT count(*) FROM pins WHERE user_id = ?", arguments: [pin.userId])
            guard (count ?? 0) < Self.maximumPinsPerUser else {
                throw Problem.conflict("too_many_pins", "You already have \(Self.maximumPinsPerUser) pins.")
            }
            var pin = pin
            try pin.insert(db)
            return pin
        }
    }

    func pin(_ id: Int64) async throws -> PinRow? {
        try await writer.read { db in try PinRow.fetchOne(db, key: id) }
    }

    /// Changes my pin; someone else's pin is a 404 like a missing one.
    func changePin(_ id: Int64, of userID: String, _ change: @Sendable (inout PinRow) throws -> Void) async throws
        -> PinRow
    {
        try await writer.write { db in
            guard var pin = try PinRow.fetchOne(db, key: id), pin.userId == userID else {
                throw Problem.notFound("The pin")
            }
            try change(&pin)
            try pin.update(db)
            return pin
        }
    }

    func deletePin(_ id: Int64, of userID: String) async throws {
        try await writer.write { db in
            try db.execute(sql: "DELETE FROM pins WHERE id = ? AND user_id = ?", arguments: [id, userID])
            guard db.changesCount > 0 else { throw Problem.notFound("The pin") }
        }
    }

    /// A user's pins, newest first, after the cursor's id.
    func pins(of userID: String, before cursor: Int64?, limit: Int) async throws -> [PinRow] {
        try await writer.read { db in
            try PinRow.fetchAll(
                db,
                sql: "SELECT * FROM pins WHERE user_id = ? AND id < ? ORDER BY id DESC LIMIT ?",
                arguments: [userID, cursor ?? Int64.max, limit])
        }
    }

    /// How many photos each of these pins has.
    func photoCounts(_ pinIDs: [Int64]) async throws -> [Int64: Int] {
        guard !pinIDs.isEmpty else { return [:] }
        return try await writer.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT pin_id, count(*) FROM pin_photos WHERE pin_id IN (SELECT value FROM json_each(?))
                    GROUP BY pin_id
                    """, arguments: [Self.jsonArray(pinIDs)])
            return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
        }
    }

    // MARK: Colours

    func colorScheme(of userID: String) async throws -> ColorScheme {
        try await writer.read { db in try Self.colorScheme(db, userID) }
    }

    static func colorScheme(_ db: Database, _ userID: String) throws -> ColorScheme {
        var scheme = ColorScheme()
        if let row = try Row.fetchOne(
            db, sql: "SELECT own, friend, other FROM color_choices WHERE user_id = ?", arguments: [userID])
        {
            scheme.own = row[0]
            scheme.friend = row[1]
            scheme.other = row[2]
        }
        for row in try Row.fetchAll(
            db, sql: "SELECT pin_id, color FROM pin_colors WHERE user_id = ?", arguments: [userID])
        {
            scheme.pins[row[0]] = row[1]
        }
        return scheme
    }

    func setCategoryColors(of userID: String, own: String?, friend: String?, other: String?) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO color_choices (user_id, own, friend, other) VALUES (?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET own = excluded.own, friend = excluded.friend,
                        other = excluded.other
                    """, arguments: [userID, own, friend, other])
        }
    }

    /// Sets (or with `nil` clears) my colour for one pin.
    func setPinColor(of userID: String, pin: Int64, color: String?) async throws {
        try await writer.write { db in
            if let color {
                let chosen = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM pin_colors WHERE user_id = ?", arguments: [userID])
                guard (chosen ?? 0) < Self.maximumPinsPerUser else {
                    throw Problem.conflict("too_many_colors", "You already chose colours for too many pins.")
                }
                try db.execute(
                    sql: """
                        INSERT INTO pin_colors (user_id, pin_id, color) VALUES (?, ?, ?)
                        ON CONFLICT (user_id, pin_id) DO UPDATE SET color = excluded.color
                        """, arguments: [userID, pin, color])
            } else {
                try db.execute(
                    sql: "DELETE FROM pin_colors WHERE user_id = ? AND pin_id = ?", arguments: [userID, pin])
            }
        }
    }

    // MARK: Privacy

    func isListedToStrangers(_ userID: String) async throws -> Bool {
        try await writer.read { db in
            try Bool.fetchOne(
                db, sql: "SELECT listed_to_strangers FROM privacy WHERE user_id = ?", arguments: [userID]) ?? true
        }
    }

    func setListedToStrangers(_ userID: String, _ listed: Bool) async throws {
        try await writer.write { db in
            try db.execute(
                sql: """
                    INSERT INTO privacy (user_id, listed_to_strangers) VALUES (?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET listed_to_strangers = excluded.listed_to_strangers
                    """, arguments: [userID, listed])
        }
    }

    /// Those of `userIDs` who asked not to be named to strangers.
    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String> {
        guard !userIDs.isEmpty else { return [] }
        return try await writer.read { db in
            Set(
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT user_id FROM privacy
                        WHERE listed_to_strangers = 0 AND user_id IN (SELECT value FROM json_each(?))
                        """, arguments: [Self.jsonArray(userIDs)]))
        }
    }

    static func jsonArray<T: Encodable>(_ values: [T]) -> String {
        String(decoding: (try? JSONEncoder().encode(values)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
