import Foundation
import GRDB
import Synchronization

/// A service's outbox in its SQLite database (the table ``OutboxMigrations/register(in:)`` creates). One process
/// writes a SQLite file, so one drainer at a time is this object's own flag.
public final class SQLiteOutbox: OutboxStorage {
    private let writer: any DatabaseWriter
    private let draining = Mutex(false)

    /// The outbox in the database `writer` writes (migrated with ``OutboxMigrations/register(in:)``).
    public init(writer: any DatabaseWriter) {
        self.writer = writer
    }

    public func append(_ messages: [OutboxMessage], limit: Int, now: Date) async throws -> Bool {
        try await writer.write { db in try Self.append(db, messages, limit: limit, now: now) }
    }

    /// Appends inside the caller's transaction, so the entries commit (or roll back) with the change they report.
    public static func append(_ db: Database, _ messages: [OutboxMessage], limit: Int, now: Date) throws -> Bool {
        guard !messages.isEmpty else { return true }
        // Entries leave from the head only, so the span of sequence numbers is the count, read from the index.
        let held =
            try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COALESCE(MAX(seq) - MIN(seq) + 1, 0) FROM outbox")) ?? 0
        guard held + messages.count <= limit else { return false }
        let insert = try db.cachedStatement(
            sql: "INSERT INTO outbox (kind, body, idempotency_key, next_attempt_at) VALUES (?, ?, ?, ?)")
        for message in messages {
            try insert.execute(arguments: [
                message.kind.rawValue, message.body, message.idempotencyKey, now.millisecondsSince1970,
            ])
        }
        return true
    }

    public func count() async throws -> Int {
        try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM outbox") ?? 0 }
    }

    public func drain(batch: Int, now: Date, _ deliver: @Sendable ([OutboxEntry]) async -> OutboxDrainOutcome)
        async throws -> Int
    {
        let claimed = draining.withLock { busy in
            if busy { return false }
            busy = true
            return true
        }
        guard claimed else { return 0 }
        defer { draining.withLock { $0 = false } }
        let entries = try await writer.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT seq, kind, body, idempotency_key, attempts, next_attempt_at FROM outbox
                    ORDER BY seq LIMIT ?
                    """, arguments: [max(1, batch)]
            ).map(Self.entry)
        }
        guard let first = entries.first, first.nextAttemptAt <= now else { return 0 }
        // No transaction is held while posting: SQLite's single writer must not wait for the network.
        let outcome = await deliver(entries)
        try await writer.write { db in
            let remove = try db.cachedStatement(sql: "DELETE FROM outbox WHERE seq = ?")
            for seq in outcome.done { try remove.execute(arguments: [seq]) }
            if let failed = outcome.failed, let retryAt = outcome.retryAt {
                try db.execute(
                    sql: "UPDATE outbox SET attempts = attempts + 1, next_attempt_at = ? WHERE seq = ?",
                    arguments: [retryAt.millisecondsSince1970, failed])
            }
        }
        return entries.count
    }

    private static func entry(_ row: Row) throws -> OutboxEntry {
        let kind: String = row["kind"]
        return OutboxEntry(
            seq: row["seq"],
            message: OutboxMessage(
                kind: OutboxKind(rawValue: kind) ?? .notice, body: row["body"], idempotencyKey: row["idempotency_key"]),
            attempts: row["attempts"], nextAttemptAt: Date(millisecondsSince1970: row["next_attempt_at"]))
    }
}

/// The outbox table, one shared migration per engine that every service appends to its own list.
public enum OutboxMigrations {
    /// Registers the SQLite migration `outbox` (append it last to the service's migrator).
    public static func register(in migrator: inout DatabaseMigrator) {
        migrator.registerMigration("outbox") { db in
            try db.execute(
                sql: """
                    -- Notices and realtime events waiting for the notifications service, in order of seq.
                    CREATE TABLE outbox (
                        seq INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        body BLOB NOT NULL,
                        idempotency_key TEXT NOT NULL,
                        attempts INTEGER NOT NULL DEFAULT 0,
                        next_attempt_at INTEGER NOT NULL
                    );
                    """)
        }
    }

    /// The PostgreSQL migration `outbox` (append it last to the service's list). The table is the service's own and
    /// is drained from its head; were it distributed, `seq` would be its key (a single shard keeps the order).
    public static let postgres = PostgresMigration(
        "outbox",
        """
        -- Notices and realtime events waiting for the notifications service, in order of seq.
        CREATE TABLE outbox (
            seq bigserial PRIMARY KEY,
            kind text NOT NULL,
            body bytea NOT NULL,
            idempotency_key text NOT NULL,
            attempts integer NOT NULL DEFAULT 0,
            next_attempt_at bigint NOT NULL
        );
        """)
}
