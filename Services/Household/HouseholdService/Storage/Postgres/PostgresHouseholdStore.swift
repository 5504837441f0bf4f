import Foundation
import Logging
import PlatformKit
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The household store in PostgreSQL through PostgresNIO, for any number of replicas on one database. See
/// ``HouseholdStore``; schema in ``PostgresHouseholdMigrations``.
///
/// What a replica could keep to itself lives in the database: idempotency keys are unique indexes, the chore list's
/// revision is bumped by triggers and read on every request, reminders and month-end reminders are claimed by rows.
/// Every write of a household's data locks the household's row first (``write(locking:_:)``), so that a household's writes queue one after the other as
/// they do behind SQLite's single writer, and each statement after the lock reads what the previous writer
/// committed (READ COMMITTED): a membership checked, a balance read before a payment, the last reminder or an
/// idempotency key looked up cannot change before the transaction commits. Households apart never wait.
struct PostgresHouseholdStore: HouseholdStore {
    let database: PostgresServiceDatabase
    let logger: Logger
    /// Chore lists' revisions (asked before every chore list): concurrent reads share one statement.
    let choreListRevisions: BatchedLookup<ChoreListKey, (revision: Int64, timeZone: String)>

    /// Connects to `url` and brings its schema up to date.
    static func open(_ url: PostgresURL, logger: Logger) async throws -> PostgresHouseholdStore {
        let database = try await PostgresServiceDatabase.open(
            url, migrations: PostgresHouseholdMigrations.all, logger: logger)
        return PostgresHouseholdStore(
            database: database, logger: logger,
            choreListRevisions: BatchedLookup(ChoreListRevisions.self, on: database))
    }

    var probe: any DatabaseProbe { database }

    var services: [any Service] { [database.service] }

    var outbox: (any OutboxStorage)? { PostgresOutbox(database: database) }

    /// Whether a client's `text` holds a NUL character, which PostgreSQL's text cannot (binding it fails the
    /// statement): such a value matches nothing stored, and the operation answers as if nothing matched.
    static func holdsNUL(_ text: String?) -> Bool {
        text?.utf8.contains(0) ?? false
    }

    /// One operation's reads, each statement seeing what is committed.
    func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// One transaction of the household `householdID`: its row locked first (see the type's comment).
    func write<T: Sendable>(locking householdID: String, _ body: @Sendable (PostgresSession) async throws -> T)
        async throws -> T
    {
        try await write { db in
            try await db.lockHousehold(householdID)
            return try await body(db)
        }
    }

    /// One transaction of the household `householdID` whose change `notices` reports: recorded in it, and handed on
    /// once it committed.
    func write<Change: Sendable>(
        locking householdID: String, reporting notices: ChangeNotices<Change>?,
        _ body: @Sendable (PostgresSession) async throws -> Change
    ) async throws -> Change {
        try await database.write(reporting: notices) { db in
            try await db.lockHousehold(householdID)
            return try await body(db)
        }
    }

    /// One transaction, run again on a serialization failure or deadlock.
    func write<T: Sendable>(
        _ isolation: PostgresServiceDatabase.TransactionIsolation = .readCommitted,
        _ body: @Sendable (PostgresSession) async throws -> T
    ) async throws -> T {
        try await database.write(isolation: isolation, body)
    }
}

extension PostgresSession {
    /// Waits for the household's other writers and makes the next ones wait (the row lock SQLite's single writer
    /// gave every write); nothing when the household is gone.
    func lockHousehold(_ householdID: String) async throws {
        try await execute("SELECT 1 FROM households WHERE id = \(householdID) FOR UPDATE")
    }
}

extension PostgresRandomAccessRow {
    /// The instant in `column` (milliseconds since 1970).
    func date(_ column: String) throws -> Date {
        Date(storedMilliseconds: try get(column, as: Int64.self))
    }

    /// The instant in `column`, if any.
    func optionalDate(_ column: String) throws -> Date? {
        try get(column, as: Int64?.self).map(Date.init(storedMilliseconds:))
    }
}
