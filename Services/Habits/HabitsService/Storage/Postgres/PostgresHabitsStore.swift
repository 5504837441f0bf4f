import Foundation
import Logging
import PlatformKit
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The habits service's storage in PostgreSQL through PostgresNIO: any number of replicas serve one database. See
/// ``HabitsStore``; schema in ``PostgresHabitsMigrations``.
///
/// Recording an event (and deleting a habit) first takes a transaction-scoped lock on the user
/// (``PostgresSession/lockOwner(_:)``), so that the checks before the insert (is this idempotency key used, has the
/// habit an event that day, is the habit still there?) stay true until it commits, as behind SQLite's single writer:
/// the same `Idempotency-Key` sent to two replicas at once gives one event and the same answer. Users apart never
/// wait. Nothing is kept in memory.
struct PostgresHabitsStore: HabitsStore {
    let database: PostgresServiceDatabase
    let logger: Logger

    /// Connects to `url` and brings its schema up to date.
    static func open(_ url: PostgresURL, logger: Logger) async throws -> PostgresHabitsStore {
        PostgresHabitsStore(
            database: try await PostgresServiceDatabase.open(
                url, migrations: PostgresHabitsMigrations.all, logger: logger),
            logger: logger)
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [database.service] }

    /// Statements outside a transaction, each seeing what was committed when it started.
    func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// Reads whose statements must agree, from one snapshot as SQLite's read transaction gives.
    func snapshot<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.write(isolation: .repeatableRead, body)
    }

    /// One transaction at READ COMMITTED, run again on a deadlock.
    func write<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.write(body)
    }

    // MARK: Preferences

    func timeZone(of userID: String) async throws -> String {
        try await read { db in try await Self.timeZone(db, userID) }
    }

    static func timeZone(_ db: PostgresSession, _ userID: String) async throws -> String {
        guard PostgresText.fits(userID) else { return HabitsStoreDefaults.timeZone }
        return try await db.value("SELECT time_zone FROM preferences WHERE user_id = \(userID)", as: String.self)
            ?? HabitsStoreDefaults.timeZone
    }

    func timeZones(of userIDs: [String]) async throws -> [String: String] {
        let userIDs = PostgresText.fitting(userIDs)
        guard !userIDs.isEmpty else { return [:] }
        let rows = try await read { db in
            try await db.rows("SELECT user_id, time_zone FROM preferences WHERE user_id = ANY(\(userIDs))").map {
                try $0.decode((String, String).self)
            }
        }
        return Dictionary(rows, uniquingKeysWith: { a, _ in a })
    }

    func setTimeZone(of userID: String, to timeZone: String) async throws {
        guard PostgresText.fits(userID, timeZone) else { throw HabitsError.notFound("The user") }
        _ = try await write { db in
            try await db.execute(
                """
                INSERT INTO preferences (user_id, time_zone) VALUES (\(userID), \(timeZone))
                ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone
                """)
        }
    }
}

extension PostgresSession {
    /// Makes every other writer of `userID`'s events wait until this transaction ends (SQLite's single writer, for
    /// one user). A hash may be shared by another user, who then waits too, never wrongly.
    func lockOwner(_ userID: String) async throws {
        try await execute("SELECT pg_advisory_xact_lock(hashtextextended(\(userID), 0))")
    }
}

// Rows to records: each record's columns in one order, selected and decoded together.

extension HabitRecord {
    static let postgresColumns =
        "id, user_id, title, reason, weekdays, start_date, created_at, updated_at, target_milli, unit, "
        + "reminder_minute, archived_at, sort_order"
    /// How many columns ``postgresColumns`` are: statements add theirs after.
    static let postgresColumnCount = 13

    init(postgres row: PostgresRow) throws {
        let (id, userID, title, reason, weekdays, startDate, createdAt, updatedAt) = try row.decode(
            (String, String, String, String, Int32, String, Int64, Int64).self)
        let (_, _, _, _, _, _, _, _, target, unit, reminder, archivedAt, sortOrder) = try row.decode(
            (String, String, String, String, Int32, String, Int64, Int64, Int64?, String?, Int32?, Int64?, Int32?).self)
        self.init(
            id: id, userId: userID, title: title, reason: reason, weekdays: Int(weekdays), startDate: startDate,
            createdAt: Date(millisecondsSince1970: createdAt), updatedAt: Date(millisecondsSince1970: updatedAt),
            targetMilli: target, unit: unit, reminderMinute: reminder.map(Int.init),
            archivedAt: archivedAt.map(Date.init(millisecondsSince1970:)), sortOrder: sortOrder.map(Int.init))
    }
}

extension EventRecord {
    static let postgresColumns =
        "id, habit_id, user_id, day, comment, latitude, longitude, photo_type, idempotency_key, created_at, updated_at, "
        + "value_milli"

    init(postgres row: PostgresRow) throws {
        let (id, habitID, userID, day, comment, latitude, longitude, photoType, key, createdAt, updatedAt, value) =
            try row.decode(
                (Int64, String, String, String, String?, Double?, Double?, String?, String?, Int64, Int64, Int64?).self)
        self.init(
            id: id, habitId: habitID, userId: userID, day: day, comment: comment, latitude: latitude,
            longitude: longitude, photoType: photoType, idempotencyKey: key,
            createdAt: Date(millisecondsSince1970: createdAt), updatedAt: Date(millisecondsSince1970: updatedAt),
            valueMilli: value)
    }
}

extension EventListRecord {
    /// From `events e` joined with `habits h`.
    static let postgresColumns =
        "e.id, e.habit_id, h.title, e.user_id, e.day, e.comment, e.latitude, e.longitude, e.photo_type, "
        + "e.created_at, e.updated_at, e.value_milli"

    init(postgres row: PostgresRow) throws {
        let (id, habitID, title, userID, day, comment, latitude, longitude, photoType, createdAt, updatedAt, value) =
            try row.decode(
                (Int64, String, String, String, String, String?, Double?, Double?, String?, Int64, Int64, Int64?).self)
        self.init(
            id: id, habitId: habitID, habitTitle: title, userId: userID, day: day, comment: comment,
            latitude: latitude, longitude: longitude, photoType: photoType,
            createdAt: Date(millisecondsSince1970: createdAt), updatedAt: Date(millisecondsSince1970: updatedAt),
            valueMilli: value)
    }
}
