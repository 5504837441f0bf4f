import Foundation
import GRDB

extension SQLiteNotificationsStore {
    func notifications(of user: String, after number: Int64?, limit: Int, unreadOnly: Bool) async throws
        -> [NotificationRecord]
    {
        // Two shapes of SQL, each compiled once per connection (the query interface would write the limit into
        // the SQL, a statement per page size).
        let sql =
            "SELECT \(NotificationRecord.selectList) FROM notifications WHERE recipient_id = ? AND number < ?"
            + (unreadOnly ? " AND read_at IS NULL" : "") + " ORDER BY number DESC LIMIT ?"
        return try await read { db in
            try NotificationRecord.fetchAll(db.cachedStatement(sql: sql), arguments: [user, number ?? .max, limit])
        }
    }

    func unreadCount(of user: String) async throws -> Int {
        try await read { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT COUNT(*) FROM notifications WHERE recipient_id = ? AND read_at IS NULL"),
                arguments: [user]) ?? 0
        }
    }

    func markRead(_ id: String?, of user: String, now: Date) async throws -> Int {
        typealias Columns = NotificationRecord.Columns
        return try await write { db in
            var unread = NotificationRecord.filter(Columns.recipientId == user)
            if let id {
                unread = unread.filter(Columns.id == id)
                guard try unread.fetchCount(db) > 0 else { throw NotificationsError.notFound("notification") }
            }
            let changed = try unread.filter(Columns.readAt == nil).updateAll(db, Columns.readAt.set(to: now))
            if changed > 0 {
                let event = try Self.appendEvent(
                    db, recipient: user, type: "notification.read", payload: StreamEvent.payload(ReadMarker(id: id)),
                    now: now)
                afterCommit(db, [event])
            }
            return changed
        }
    }

    func delete(_ id: String, of user: String) async throws {
        typealias Columns = NotificationRecord.Columns
        try await write { db in
            guard try NotificationRecord.filter(Columns.id == id && Columns.recipientId == user).deleteAll(db) > 0
            else { throw NotificationsError.notFound("notification") }
        }
    }
}
