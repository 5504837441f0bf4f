import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The habits service's storage in SQLite through GRDB (one process). See ``HabitsStore``.
struct SQLiteHabitsStore: HabitsStore {
    private let database: ServiceDatabase

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(
            location, migrator: HabitsMigrations.migrator, functions: [SQLiteHabitsStore.distanceFunction])
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [] }

    /// One read transaction (for the `+Concern` files).
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction (for the `+Concern` files).
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    // MARK: Preferences

    func timeZone(of userID: String) async throws -> String {
        try await read { db in try Self.timeZone(db, userID) }
    }

    static func timeZone(_ db: Database, _ userID: String) throws -> String {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT time_zone FROM preferences WHERE user_id = ?"), arguments: [userID])
            ?? HabitsStoreDefaults.timeZone
    }

    func timeZones(of userIDs: [String]) async throws -> [String: String] {
        guard !userIDs.isEmpty else { return [:] }
        let zones = try await read { db in
            try PreferenceRecord.filter(userIDs.contains(PreferenceRecord.Columns.userId)).fetchAll(db)
        }
        return Dictionary(zones.map { ($0.userId, $0.timeZone) }, uniquingKeysWith: { a, _ in a })
    }

    func setTimeZone(of userID: String, to timeZone: String) async throws {
        try await write { db in try PreferenceRecord(userId: userID, timeZone: timeZone).upsert(db) }
    }
}
