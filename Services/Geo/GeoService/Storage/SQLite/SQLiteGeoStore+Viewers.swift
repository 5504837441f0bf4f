import Foundation
import GRDB

/// What each viewer chose: map colours per category and per pin, and whether strangers see their name.
extension SQLiteGeoStore {
    func colorScheme(of userID: String) async throws -> ColorScheme {
        try await read { db in try Self.colorScheme(db, userID) }
    }

    /// One statement for both tables (the map runs it on every request): the category row has no pin id.
    static func colorScheme(_ db: Database, _ userID: String) throws -> ColorScheme {
        var scheme = ColorScheme()
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: """
                    SELECT NULL, own, friend, other FROM color_choices WHERE user_id = ?1
                    UNION ALL
                    SELECT pin_id, color, NULL, NULL FROM pin_colors WHERE user_id = ?1
                    """), arguments: [userID])
        while let row = try rows.next() {
            if let pin: Int64 = row[0] {
                scheme.pins[pin] = row[1]
            } else {
                scheme.own = row[1]
                scheme.friend = row[2]
                scheme.other = row[3]
            }
        }
        return scheme
    }

    func setCategoryColors(of userID: String, own: String?, friend: String?, other: String?) async throws {
        try await write { db in
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
        try await write { db in
            if let color {
                let chosen = try Int.fetchOne(
                    db.cachedStatement(sql: "SELECT count(*) FROM pin_colors WHERE user_id = ?"), arguments: [userID])
                guard (chosen ?? 0) < PinLimits.pinsPerUser else { throw GeoError.tooManyColors }
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
        try await read { db in
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT listed_to_strangers FROM privacy WHERE user_id = ?"),
                arguments: [userID]) ?? true
        }
    }

    func setListedToStrangers(_ userID: String, _ listed: Bool) async throws {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO privacy (user_id, listed_to_strangers) VALUES (?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET listed_to_strangers = excluded.listed_to_strangers
                    """, arguments: [userID, listed])
        }
    }

    /// Those of `userIDs` who asked not to be named to strangers.
    func unlistedToStrangers(among userIDs: [String]) async throws -> Set<String> {
        try await read { db in try Self.unlistedToStrangers(db, among: userIDs) }
    }

    static func unlistedToStrangers(_ db: Database, among userIDs: [String]) throws -> Set<String> {
        guard !userIDs.isEmpty else { return [] }
        return Set(
            try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user_id FROM privacy
                        WHERE listed_to_strangers = 0 AND user_id IN (SELECT value FROM json_each(?))
                        """), arguments: [StoredJSON.array(userIDs)]))
    }
}
