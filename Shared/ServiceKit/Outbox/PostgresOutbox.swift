import Foundation
import PostgresNIO

/// A service's outbox in its PostgreSQL database (the table ``OutboxMigrations/postgres`` creates), shared by every
/// replica: a drain holds a transaction-scoped advisory lock, so one replica drains at a time and order holds.
///
/// Sequence numbers are taken as entries are inserted and become visible as their transactions commit, so two
/// entries of concurrent requests may be seen out of number order; a drain reads the whole head again each time, so
/// nothing is skipped, and a change that happened before another (answered before the other began) always has the
/// lower number and is delivered first.
public struct PostgresOutbox: OutboxStorage {
    private let database: PostgresServiceDatabase
    /// The advisory lock a drain holds (one outbox per database).
    static let drainLock: Int64 = 0x6f75_7462_6f78

    /// The outbox in `database` (migrated with ``OutboxMigrations/postgres``).
    public init(database: PostgresServiceDatabase) {
        self.database = database
    }

    public func append(_ messages: [OutboxMessage], limit: Int, now: Date) async throws -> Bool {
        try await database.write { db in try await Self.append(db, messages, limit: limit, now: now) }
    }

    /// Appends inside the caller's transaction, so the entries commit (or roll back) with the change they report.
    public static func append(_ db: PostgresSession, _ messages: [OutboxMessage], limit: Int, now: Date)
        async throws -> Bool
    {
        guard !messages.isEmpty else { return true }
        // Entries leave from the head only, so the span of sequence numbers bounds the count (gaps of rolled-back
        // inserts make it larger, never smaller), read from the primary key alone.
        let held = try await db.value("SELECT COALESCE(MAX(seq) - MIN(seq) + 1, 0) FROM outbox", as: Int64.self) ?? 0
        guard held + Int64(messages.count) <= Int64(limit) else { return false }
        for message in messages {
            try await db.execute(
                """
                INSERT INTO outbox (kind, body, idempotency_key, next_attempt_at)
                VALUES (
                    \(message.kind.rawValue), \(message.body), \(message.idempotencyKey), \(now.millisecondsSince1970))
                """)
        }
        return true
    }

    public func count() async throws -> Int {
        try await database.read { db in Int(try await db.value("SELECT COUNT(*) FROM outbox", as: Int64.self) ?? 0) }
    }

    public func drain(batch: Int, now: Date, _ deliver: @Sendable ([OutboxEntry]) async -> OutboxDrainOutcome)
        async throws -> Int
    {
        // One attempt: the body posts to another service, which a retried transaction would post again.
        try await database.write(attempts: 1) { db in
            guard try await db.value("SELECT pg_try_advisory_xact_lock(\(Self.drainLock))", as: Bool.self) == true
            else { return 0 }
            let rows = try await db.namedRows(
                """
                SELECT seq, kind, body, idempotency_key, attempts, next_attempt_at FROM outbox
                ORDER BY seq LIMIT \(Int64(max(1, batch)))
                """)
            let entries = try rows.map { row in
                OutboxEntry(
                    seq: try row.get("seq"),
                    message: OutboxMessage(
                        kind: OutboxKind(rawValue: try row.get("kind", as: String.self)) ?? .notice,
                        body: try row.get("body"), idempotencyKey: try row.get("idempotency_key")),
                    attempts: Int(try row.get("attempts", as: Int32.self)),
                    nextAttemptAt: Date(millisecondsSince1970: try row.get("next_attempt_at")))
            }
            guard let first = entries.first, first.nextAttemptAt <= now else { return 0 }
            let outcome = await deliver(entries)
            if !outcome.done.isEmpty {
                try await db.execute("DELETE FROM outbox WHERE seq = ANY(\(outcome.done))")
            }
            if let failed = outcome.failed, let retryAt = outcome.retryAt {
                try await db.execute(
                    """
                    UPDATE outbox SET attempts = attempts + 1, next_attempt_at = \(retryAt.millisecondsSince1970)
                    WHERE seq = \(failed)
                    """)
            }
            return entries.count
        }
    }
}
