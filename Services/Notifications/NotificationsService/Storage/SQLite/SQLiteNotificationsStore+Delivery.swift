import Foundation
import GRDB

extension SQLiteNotificationsStore {
    func accept(_ deliveries: [Delivery], now: Date) async throws -> [DeliveryOutcome] {
        // Events' keys are remembered in memory (one writer): a key already taken stores nothing.
        var taken: [(key: String, producer: String)] = []
        let fresh = deliveries.map { delivery -> Bool in
            guard case .event(let event) = delivery, let key = event.idempotencyKey else { return true }
            guard recentEvents.insert(key, producer: event.producer, now: now) else { return false }
            taken.append((key, event.producer))
            return true
        }
        do {
            return try await write { db in
                var events: [StreamEvent] = []
                var outcomes: [DeliveryOutcome] = []
                for (delivery, isFresh) in zip(deliveries, fresh) {
                    switch delivery {
                    case .notice(let notice):
                        let (outcome, streamed) = try Self.deliver(notice, now: now, db)
                        outcomes.append(outcome)
                        events += streamed
                    case .event(let event):
                        outcomes.append(.event(accepted: isFresh))
                        guard isFresh else { continue }
                        events += try event.recipientIDs.map {
                            try Self.appendEvent(db, recipient: $0, type: event.type, payload: event.payload, now: now)
                        }
                    }
                }
                afterCommit(db, events)
                return outcomes
            }
        } catch {
            // Not stored: the producer's retry must not be taken for a duplicate.
            for (key, producer) in taken { recentEvents.remove(key, producer: producer) }
            throw error
        }
    }

    /// Stores `notice` for each recipient who does not have it yet, and their `notification.created` events.
    private static func deliver(_ notice: IncomingNotice, now: Date, _ db: Database) throws
        -> (DeliveryOutcome, [StreamEvent])
    {
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
                try appendEvent(
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
        let pushes = PushTarget.targets(created, devices: devices, preferences: preferences, now: now)
        return (
            .notice(created: events.count, duplicates: notice.recipientIDs.count - events.count, pushes: pushes), events
        )
    }
}
