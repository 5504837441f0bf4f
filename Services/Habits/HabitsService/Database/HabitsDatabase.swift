import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The habits service's storage: the only place that knows SQL. Each method is one transaction.
/// Every habit and event belongs to one user; methods that take an `owner` answer 404 to anyone else,
/// so another user's habits are not even revealed to exist.
struct HabitsDatabase: Sendable {
    private let database: ServiceDatabase

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(
            location, migrator: HabitsMigrations.migrator, functions: [HabitsDatabase.distanceFunction])
    }

    /// For the readiness check.
    var reader: any DatabaseReader { database.writer }

    /// One read transaction (for the `+Concern` files).
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction (for the `+Concern` files).
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    // MARK: Preferences

    static let defaultTimeZone = "UTC"

    func timeZone(of userID: String) async throws -> String {
        try await read { db in try Self.timeZone(db, userID) }
    }

    static func timeZone(_ db: Database, _ userID: String) throws -> String {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT time_zone FROM preferences WHERE user_id = ?"), arguments: [userID])
            ?? defaultTimeZone
    }

    /// Today in the user's time zone: the day "today", due days and default start dates are counted in.
    func today(of userID: String, clock: WallClock) async throws -> LocalDay {
        clock.today(inZone: try await timeZone(of: userID))
    }

    /// Today in each user's time zone.
    func todays(of userIDs: [String], clock: WallClock) async throws -> [String: LocalDay] {
        guard !userIDs.isEmpty else { return [:] }
        let zones = try await read { db in
            try PreferenceRecord.filter(userIDs.contains(PreferenceRecord.Columns.userId)).fetchAll(db)
        }
        let byUser = Dictionary(zones.map { ($0.userId, $0.timeZone) }, uniquingKeysWith: { a, _ in a })
        return Dictionary(
            userIDs.map { ($0, clock.today(inZone: byUser[$0] ?? Self.defaultTimeZone)) },
            uniquingKeysWith: { a, _ in a })
    }

    func setTimeZone(of userID: String, to timeZone: String) async throws {
        try await write { db in try PreferenceRecord(userId: userID, timeZone: timeZone).upsert(db) }
    }
}
