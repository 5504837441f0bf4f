import Foundation
import Logging
import PlatformKit
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The identity store in PostgreSQL: any number of identity replicas share it. Each method is one transaction (its
/// concerns in the `PostgresIdentityStore+<Concern>` files); writes run `SERIALIZABLE`, as SQLite's single writer
/// does, and are run again on a serialization failure, so every invariant SQLite keeps by writing one transaction at
/// a time holds here too (a token, code or nonce is used once even when two replicas are shown it at once).
struct PostgresIdentityStore: IdentityStore {
    let database: PostgresServiceDatabase
    let logger: Logger
    /// Users read by id (every signed-in request's profile): concurrent reads share one statement.
    let usersByID: BatchedLookup<String, UserRecord>
    /// Where the transactions that record ended sessions notify every replica (`PostgresChangeListener`).
    static let revocationChannel = "identity_session_revocations"

    /// Connects to `url` and brings its schema up to date.
    static func open(_ url: PostgresURL, logger: Logger) async throws -> PostgresIdentityStore {
        let database = try await PostgresServiceDatabase.open(
            url, migrations: PostgresIdentityMigrations.all, logger: logger)
        return PostgresIdentityStore(
            database: database, logger: logger,
            usersByID: BatchedLookup { ids in
                try await database.read { sql in
                    Dictionary(try await sql.rows(UsersByID(ids: ids)).map { ($0.id, $0) }) { first, _ in first }
                }
            })
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [database.service] }

    func revocationWatcher(_ onRecorded: @escaping @Sendable () async -> Void) -> (any Service)? {
        // A lost listener (`nil`) catches up the same way: the watcher reads the table after what it last saw.
        PostgresChangeListener(database: database, channel: Self.revocationChannel) { _ in await onRecorded() }
    }

    /// Statements outside a transaction, each seeing what was committed when it started.
    func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// One transaction, `SERIALIZABLE` unless said otherwise, run again on a serialization failure.
    func write<T: Sendable>(
        isolation: PostgresServiceDatabase.TransactionIsolation = .serializable,
        _ body: @Sendable (PostgresSession) async throws -> T
    ) async throws -> T {
        try await database.write(isolation: isolation, body)
    }
}

// Rows to records: each record's columns in one order, selected and decoded together.

extension UserRecord {
    static let postgresColumns =
        "id, email, email_verified, username, password_hash, display_name, bio, home_city, roles, avatar_etag, "
        + "created_at, updated_at"

    /// The record from a row selecting ``postgresColumns`` from `first` on.
    init(postgres row: PostgresRow) throws {
        let (
            id, email, emailVerified, username, passwordHash, displayName, bio, homeCity, roles, avatarEtag, createdAt,
            updatedAt
        ) = try row.decode(
            (String, String?, Bool, String?, String?, String, String, String, String, String?, Date, Date).self)
        self.init(
            id: id, email: email, emailVerified: emailVerified, username: username, passwordHash: passwordHash,
            displayName: displayName, bio: bio, homeCity: homeCity, roles: roles, avatarEtag: avatarEtag,
            createdAt: createdAt, updatedAt: updatedAt)
    }
}

extension SessionRecord {
    static let postgresColumns = "id, user_id, user_agent, created_at, last_used_at, revoked_at, revoke_reason"

    init(postgres row: PostgresRow) throws {
        let (id, userId, userAgent, createdAt, lastUsedAt, revokedAt, revokeReason) = try row.decode(
            (String, String, String?, Date, Date, Date?, String?).self)
        self.init(
            id: id, userId: userId, userAgent: userAgent, createdAt: createdAt, lastUsedAt: lastUsedAt,
            revokedAt: revokedAt, revokeReason: revokeReason)
    }
}

extension ExternalIdentityRecord {
    static let postgresColumns = "issuer, subject, user_id, created_at"

    init(postgres row: PostgresRow) throws {
        let (issuer, subject, userId, createdAt) = try row.decode((String, String, String, Date).self)
        self.init(issuer: issuer, subject: subject, userId: userId, createdAt: createdAt)
    }
}

extension OutboxEmailRecord {
    static let postgresColumns =
        "id, recipient, subject, body, created_at, next_attempt_at, attempts, sent_at, last_error"

    init(postgres row: PostgresRow) throws {
        let (id, recipient, subject, body, createdAt, nextAttemptAt, attempts, sentAt, lastError) = try row.decode(
            (Int64, String, String, String, Date, Date, Int, Date?, String?).self)
        self.init(
            id: id, recipient: recipient, subject: subject, body: body, createdAt: createdAt,
            nextAttemptAt: nextAttemptAt, attempts: attempts, sentAt: sentAt, lastError: lastError)
    }
}
