import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

// Mail waiting for delivery. Every replica's delivery loop claims what it sends (`claimDueEmails`), so each message
// goes out once.
extension PostgresIdentityStore {
    func enqueue(_ mail: MailMessage, now: Date) async throws {
        try await write(isolation: .readCommitted) { sql in try await Self.enqueue(sql, mail, now: now) }
    }

    static func enqueue(_ sql: PostgresSession, _ mail: MailMessage, now: Date) async throws {
        try await sql.execute(
            """
            INSERT INTO outbox_emails (recipient, subject, body, created_at, next_attempt_at, attempts)
            VALUES (\(mail.recipient), \(mail.subject), \(mail.body), \(now), \(now), 0)
            """)
    }

    func dueEmails(now: Date, limit: Int) async throws -> [OutboxEmailRecord] {
        try await read { sql in
            try await sql.rows(
                """
                SELECT \(unescaped: OutboxEmailRecord.postgresColumns) FROM outbox_emails
                WHERE sent_at IS NULL AND next_attempt_at <= \(now) ORDER BY id LIMIT \(limit)
                """
            ).map(OutboxEmailRecord.init(postgres:))
        }
    }

    func claimDueEmails(now: Date, limit: Int, lease: TimeInterval) async throws -> [OutboxEmailRecord] {
        // SKIP LOCKED: a row another replica is claiming right now is left to it, not waited for.
        try await write(isolation: .readCommitted) { sql in
            try await sql.rows(
                """
                UPDATE outbox_emails SET next_attempt_at = \(now.addingTimeInterval(lease))
                WHERE id IN (
                    SELECT id FROM outbox_emails WHERE sent_at IS NULL AND next_attempt_at <= \(now)
                    ORDER BY id LIMIT \(limit) FOR UPDATE SKIP LOCKED)
                RETURNING \(unescaped: OutboxEmailRecord.postgresColumns)
                """
            ).map(OutboxEmailRecord.init(postgres:)).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
        }
    }

    func markSent(emailID: Int64, now: Date) async throws {
        try await write(isolation: .readCommitted) { sql in
            _ = try await sql.execute(
                """
                UPDATE outbox_emails SET sent_at = \(now), attempts = attempts + 1, last_error = NULL
                WHERE id = \(emailID)
                """)
        }
    }

    func markFailed(emailID: Int64, error: String, retryAt: Date) async throws {
        try await write(isolation: .readCommitted) { sql in
            _ = try await sql.execute(
                """
                UPDATE outbox_emails SET attempts = attempts + 1, last_error = \(error), next_attempt_at = \(retryAt)
                WHERE id = \(emailID)
                """)
        }
    }

    func outboxEmails() async throws -> [OutboxEmailRecord] {
        try await read { sql in
            try await sql.rows(
                "SELECT \(unescaped: OutboxEmailRecord.postgresColumns) FROM outbox_emails ORDER BY id"
            ).map(OutboxEmailRecord.init(postgres:))
        }
    }
}
