import Foundation
import GRDB
import PlatformKit

// Mail waiting for delivery (the outbox job sends it).
extension SQLiteIdentityStore {
    func enqueue(_ mail: MailMessage, now: Date) async throws {
        try await write { db in try Self.enqueue(db, mail, now: now) }
    }

    static func enqueue(_ db: Database, _ mail: MailMessage, now: Date) throws {
        var record = OutboxEmailRecord(
            id: nil, recipient: mail.recipient, subject: mail.subject, body: mail.body, createdAt: now,
            nextAttemptAt: now, attempts: 0)
        try record.insert(db)
    }

    func dueEmails(now: Date, limit: Int) async throws -> [OutboxEmailRecord] {
        try await read { db in
            try OutboxEmailRecord.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT * FROM outbox_emails WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?"
                ), arguments: [now, limit])
        }
    }

    func claimDueEmails(now: Date, limit: Int, lease: TimeInterval) async throws -> [OutboxEmailRecord] {
        try await write { db in
            try OutboxEmailRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        UPDATE outbox_emails SET next_attempt_at = ?
                        WHERE id IN (
                            SELECT id FROM outbox_emails WHERE sent_at IS NULL AND next_attempt_at <= ?
                            ORDER BY id LIMIT ?)
                        RETURNING *
                        """), arguments: [now.addingTimeInterval(lease), now, limit]
            ).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        }
    }

    func markSent(emailID: Int64, now: Date) async throws {
        try await write { db in
            try db.execute(
                sql: "UPDATE outbox_emails SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?",
                arguments: [now, emailID])
        }
    }

    func markFailed(emailID: Int64, error: String, retryAt: Date) async throws {
        try await write { db in
            try db.execute(
                sql:
                    "UPDATE outbox_emails SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
                arguments: [error, retryAt, emailID])
        }
    }

    /// Every queued message, sent or not, oldest first (for tests and support).
    func outboxEmails() async throws -> [OutboxEmailRecord] {
        try await read { db in try OutboxEmailRecord.order(OutboxEmailRecord.Columns.id).fetchAll(db) }
    }
}
