import Foundation
import PostgresNIO
import ServiceKit

extension PostgresNotificationsStore {
    func notifications(of user: String, after number: Int64?, limit: Int, unreadOnly: Bool) async throws
        -> [NotificationRecord]
    {
        try await read { session in
            let before = number ?? .max
            return try await
                (unreadOnly
                ? session.rows(Prepared<UnreadInbox>(user, before, limit))
                : session.rows(Prepared<Inbox>(user, before, limit))).map(Self.notification)
        }
    }

    // The inbox, read on every open of the app: prepared.

    enum Inbox: PreparedSQL {
        static let sql = """
            SELECT \(notificationColumns) FROM notifications
            WHERE recipient_id = $1 AND number < $2 ORDER BY number DESC LIMIT $3
            """
    }

    enum UnreadInbox: PreparedSQL {
        static let sql = """
            SELECT \(notificationColumns) FROM notifications
            WHERE recipient_id = $1 AND number < $2 AND read_at IS NULL ORDER BY number DESC LIMIT $3
            """
    }

    func unreadCount(of user: String) async throws -> Int {
        try await read { session in
            Int(
                try await session.value(
                    "SELECT count(*) FROM notifications WHERE recipient_id = \(user) AND read_at IS NULL",
                    as: Int64.self) ?? 0)
        }
    }

    func markRead(_ id: String?, of user: String, now: Date) async throws -> Int {
        if let id, !Self.storable(id) { throw NotificationsError.notFound("notification") }
        return try await write { session in
            // The marker is a stream event: numbered under the recipient's stream lock.
            try await Self.lockStreams(session, of: [user])
            let changed: Int
            if let id {
                let found = try await session.execute(
                    "SELECT 1 FROM notifications WHERE recipient_id = \(user) AND id = \(id)")
                guard found > 0 else { throw NotificationsError.notFound("notification") }
                changed = try await session.execute(
                    """
                    UPDATE notifications SET read_at = \(StoredInstant(now))
                    WHERE recipient_id = \(user) AND id = \(id) AND read_at IS NULL RETURNING 1
                    """)
            } else {
                changed = try await session.execute(
                    """
                    UPDATE notifications SET read_at = \(StoredInstant(now))
                    WHERE recipient_id = \(user) AND read_at IS NULL RETURNING 1
                    """)
            }
            if changed > 0 {
                _ = try await Self.appendEvents(
                    session, [(user, "notification.read", try StreamEvent.payload(ReadMarker(id: id)))], now: now)
            }
            return changed
        }
    }

    func delete(_ id: String, of user: String) async throws {
        guard Self.storable(id) else { throw NotificationsError.notFound("notification") }
        try await write { session in
            let deleted = try await session.execute(
                "DELETE FROM notifications WHERE id = \(id) AND recipient_id = \(user) RETURNING 1")
            guard deleted > 0 else { throw NotificationsError.notFound("notification") }
        }
    }
}
