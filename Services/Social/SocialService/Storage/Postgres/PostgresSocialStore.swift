import Foundation
import Logging
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The social graph's storage in PostgreSQL through PostgresNIO: any number of replicas serve one database. See
/// ``SocialStore``; schema in ``PostgresSocialMigrations``.
///
/// Every write about two users first takes a transaction-scoped lock on their pair (``PostgresSession/lockPair(_:_:)``),
/// so that the checks before it (are they friends, is a request pending, is one blocked?) and the write stay true
/// until it commits, as behind SQLite's single writer; pairs apart never wait. The change feed's sequence comes
/// from a one-row counter locked until commit, so changes are numbered in commit order, and its triggers notify
/// every replica (``ringOnRelationshipChanges(_:)``).
struct PostgresSocialStore: SocialStore {
    let database: PostgresServiceDatabase
    let logger: Logger
    /// Where the triggers that record relationship changes notify every replica at commit.
    static let changesChannel = "social_relationship_changes"

    /// Connects to `url` and brings its schema up to date.
    static func open(_ url: PostgresURL, logger: Logger) async throws -> PostgresSocialStore {
        PostgresSocialStore(
            database: try await PostgresServiceDatabase.open(
                url, migrations: PostgresSocialMigrations.all, logger: logger),
            logger: logger)
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [database.service] }

    var outbox: (any OutboxStorage)? { PostgresOutbox(database: database) }

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

    /// One transaction whose change `notices` reports: recorded in it, and handed on once it committed.
    func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (PostgresSession) async throws -> Change
    ) async throws -> Change {
        try await database.write(reporting: notices, body)
    }
}

extension PostgresSession {
    /// Makes every other writer about `a` and `b` wait until this transaction ends (SQLite's single writer, for one
    /// pair of users). A hash of the pair may be shared by another pair, which then waits too, never wrongly.
    func lockPair(_ a: String, _ b: String) async throws {
        let (low, high) = friendshipPair(a, b)
        try await execute("SELECT pg_advisory_xact_lock(hashtextextended(\(low + "\u{1F}" + high), 0))")
    }
}

extension FriendRequestRecord {
    static let postgresColumns = "id, sender_id, recipient_id, status, created_at, responded_at"

    /// The record from a row selecting ``postgresColumns``.
    init(postgres row: PostgresRow) throws {
        let (id, sender, recipient, status, createdAt, respondedAt) = try row.decode(
            (String, String, String, String, Int64, Int64?).self)
        self.init(
            id: id, senderId: sender, recipientId: recipient, status: status,
            createdAt: Date(millisecondsSince1970: createdAt),
            respondedAt: respondedAt.map(Date.init(millisecondsSince1970:))
        )
    }
}

extension ProfileRecord {
    static let postgresColumns = "p.user_id, p.username, p.display_name, p.avatar_url, p.fetched_at"

    /// The record from a row selecting ``postgresColumns``.
    init(postgres row: PostgresRow) throws {
        let (userID, username, displayName, avatarURL, fetchedAt) = try row.decode(
            (String, String?, String, String?, Int64).self)
        self.init(
            userId: userID, username: username, displayName: displayName, avatarUrl: avatarURL,
            fetchedAt: Date(millisecondsSince1970: fetchedAt))
    }
}
