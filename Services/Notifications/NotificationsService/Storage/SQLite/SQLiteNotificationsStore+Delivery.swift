import Foundation
import GRDB

extension SQLiteNotificationsStore {
    func deliver(
        _ notice: IncomingNotice, now: Date
    ) async throws -> (created: Int, duplicates: Int, pushes: [PushTarget]) {
        try await write { db in
            var events: [StreamEvent] = []
            var created: [NotificationRecord] = []
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO notifications
                    (id, recipient_id, kind, text, link, producer, idempotency_key, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for recipient in notice.recipientIDs {
                var row = NotificationRecord(
                    id: UUID().uuidString.lowercased(), recipientId: recipient, kind: notice.kind, text: notice.text,
                    link: notice.link, producer: notice.producer, idempotencyKey: notice.idempotencyKey,
                    createdAt: now)
                try insert.execute(arguments: [
                    row.id, recipient, row.kind, row.text, row.link, row.producer, row.idempotencyKey, now,
                ])
                guard db.changesCount > 0 else { continue }
                row.number = db.lastInsertedRowID
                created.append(row)
                events.append(
                    try Self.appendEvent(
                        db, recipient: recipient, type: "notification.created", payload: StreamEvent.payload(row.view),
                        now: now))
            }
            // Preferences and devices of all new recipients at once: a notice to a whole group is one query each.
            let recipients = created.map(\.recipientId)
            let preferences = try PreferencesRecord.filter(keys: recipients).fetchAll(db)
                .reduce(into: [String: Preferences]()) { $0[$1.userId] = $1.preferences }
            let devices = Dictionary(
                grouping: try DeviceRecord.filter(recipients.contains(DeviceRecord.Columns.userId)).fetchAll(db),
                by: \.userId)
            let pushes = created.compactMap { row -> PushTarget? in
                guard let targets = devices[row.recipientId],
                    (preferences[row.recipientId] ?? Preferences()).allowsPush(of: row.kind, at: now)
                else { return nil }
                return PushTarget(notification: row, devices: targets)
            }
            afterCommit(db, events)
            return (events.count, notice.recipientIDs.count - events.count, pushes)
        }
    }

    @discardableResult
    func append(_ event: IncomingEvent, now: Date) async throws -> Bool {
        if let key = event.idempotencyKey {
            guard recentEvents.insert(key, producer: event.producer, now: now) else { return false }
        }
        do {
            try await write { db in
                let events = try event.recipientIDs.map {
                    try Self.appendEvent(db, recipient: $0, type: event.type, payload: event.payload, now: now)
                }
                afterCommit(db, events)
            }
        } catch {
            // Not stored: the producer's retry must not be taken for a duplicate.
            if let key = event.idempotencyKey { recentEvents.remove(key, producer: event.producer) }
            throw error
        }
        return true
    }
}
