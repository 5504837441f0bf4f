import Foundation
import PostgresNIO
import ServiceKit

extension PostgresNotificationsStore {
    func accept(_ deliveries: [Delivery], now: Date) async throws -> [DeliveryOutcome] {
        let ids = deliveries.map { delivery -> [String] in
            guard case .notice(let notice) = delivery else { return [] }
            return notice.recipientIDs.map { _ in UUID().uuidString.lowercased() }
        }
        let recipients = deliveries.flatMap { delivery -> [String] in
            switch delivery {
            case .notice(let notice): notice.recipientIDs
            case .event(let event): event.recipientIDs
            }
        }
        return try await write { session in
            // Every stream the batch touches, locked at once in one order: two batches cannot deadlock.
            try await Self.lockStreams(session, of: recipients)
            var outcomes: [DeliveryOutcome] = []
            for (delivery, ids) in zip(deliveries, ids) {
                switch delivery {
                case .notice(let notice): outcomes.append(try await Self.deliver(notice, ids: ids, now: now, session))
                case .event(let event):
                    outcomes.append(.event(accepted: try await Self.append(event, now: now, session)))
                }
            }
            return outcomes
        }
    }

    /// Stores `notice` for each recipient who does not have it yet (rows `ids`), and their `notification.created`
    /// events; the caller holds the recipients' stream locks.
    private static func deliver(_ notice: IncomingNotice, ids: [String], now: Date, _ session: PostgresSession)
        async throws -> DeliveryOutcome
    {
        let recipients = notice.recipientIDs
        // Numbered in the recipients' order, as SQLite inserts them one by one; a recipient who already has the
        // notice (a retried post) gets nothing.
        let created = try await session.rows(
            """
            INSERT INTO notifications (id, recipient_id, kind, text, link, producer, idempotency_key, created_at)
            SELECT n.id, n.recipient, \(notice.kind), \(notice.text), \(notice.link), \(notice.producer),
                \(notice.idempotencyKey), \(StoredInstant(now))
            FROM unnest(\(ids)::text[], \(recipients)::text[]) WITH ORDINALITY AS n(id, recipient, position)
            ORDER BY n.position
            ON CONFLICT DO NOTHING
            RETURNING \(unescaped: Self.notificationColumns)
            """
        ).map(Self.notification).sorted { ($0.number ?? 0) < ($1.number ?? 0) }
        guard !created.isEmpty else { return .notice(created: 0, duplicates: recipients.count, pushes: []) }
        let events = try await Self.appendEvents(
            session,
            try created.map { ($0.recipientId, "notification.created", try StreamEvent.payload($0.view)) },
            now: now)
        // Preferences and devices of all new recipients at once: a notice to a whole group is one query each.
        let newRecipients = created.map(\.recipientId)
        let preferences = try await session.rows(
            """
            SELECT \(unescaped: Self.preferencesColumns) FROM preferences WHERE user_id = ANY(\(newRecipients))
            """
        ).map(Self.preferences).reduce(into: [String: Preferences]()) { $0[$1.userId] = $1.preferences }
        let devices = Dictionary(
            grouping: try await session.rows(
                """
                SELECT \(unescaped: Self.deviceColumns) FROM devices WHERE user_id = ANY(\(newRecipients))
                ORDER BY created_at, token
                """
            ).map(Self.device),
            by: \.userId)
        let pushes = PushTarget.targets(created, devices: devices, preferences: preferences, now: now)
        return .notice(created: events.count, duplicates: recipients.count - events.count, pushes: pushes)
    }

    /// Appends `event` to each recipient's stream unless its key was taken within the window (`false` then); the
    /// caller holds the recipients' stream locks.
    private static func append(_ event: IncomingEvent, now: Date, _ session: PostgresSession) async throws -> Bool {
        if let key = event.idempotencyKey {
            // A key seen within the window is a retry; one older than that is taken anew, as in memory.
            let fresh = try await session.execute(
                """
                INSERT INTO stream_event_keys (producer, key, seen_at) VALUES (\(event.producer), \(key), \(StoredInstant(now)))
                ON CONFLICT (producer, key) DO UPDATE SET seen_at = EXCLUDED.seen_at
                WHERE stream_event_keys.seen_at <= \(StoredInstant(now - RecentEventKeys.defaultWindow))
                RETURNING 1
                """)
            guard fresh > 0 else { return false }
        }
        _ = try await Self.appendEvents(session, event.recipientIDs.map { ($0, event.type, event.payload) }, now: now)
        return true
    }
}
