import Foundation
import PostgresNIO
import ServiceKit

extension PostgresNotificationsStore {
    /// The advisory-lock class of the recipients' stream locks (the second key is the recipient's hash).
    static let streamLockClass: Int32 = 61_720_211

    /// Takes the stream locks of `recipients` until the transaction ends, in one order (hash order, so two writers
    /// never wait on each other in a cycle; a deadlock all the same is retried by `write`). Every writer of a
    /// recipient's stream events or notices takes it before drawing their numbers: a recipient's numbers are then
    /// handed out in commit order, and a stream that sent 12 never meets an 11 committed later. Two recipients
    /// whose hashes collide only share a lock.
    static func lockStreams(_ session: PostgresSession, of recipients: [String]) async throws {
        try await session.execute(
            """
            SELECT pg_advisory_xact_lock(\(streamLockClass), keys.key)
            FROM (
                SELECT DISTINCT hashtext(recipient) AS key FROM unnest(\(recipients)::text[]) AS recipient ORDER BY key
            ) AS keys
            """)
    }

    /// Appends one event per entry to its recipient's stream log (the caller holds their stream locks) and announces
    /// them to every replica at commit. Returns them in sequence order.
    static func appendEvents(
        _ session: PostgresSession, _ entries: [(recipient: String, type: String, payload: String)], now: Date
    ) async throws -> [StreamEvent] {
        guard !entries.isEmpty else { return [] }
        let events = try await session.rows(
            """
            INSERT INTO stream_events (recipient_id, type, payload, created_at)
            SELECT e.recipient, e.type, e.payload, \(StoredInstant(now))
            FROM unnest(\(entries.map(\.recipient))::text[], \(entries.map(\.type))::text[],
                \(entries.map(\.payload))::text[]) WITH ORDINALITY AS e(recipient, type, payload, position)
            ORDER BY e.position
            RETURNING seq, recipient_id, type, payload
            """
        ).map { row in
            let (seq, recipient, type, payload) = try row.decode((Int64, String, String, String).self)
            return StreamEvent(seq: seq, recipientID: recipient, type: type, payload: payload)
        }.sorted { $0.seq < $1.seq }
        var lowest: [String: Int64] = [:]
        for event in events where lowest[event.recipientID] == nil { lowest[event.recipientID] = event.seq }
        try await announce(session, PostgresStreamFeed.eventsKind, lowest.map { "\($0.value):\($0.key)" })
        return events
    }

    /// Sends `words` on ``channel`` under `kind`, in as many notices as PostgreSQL's 8,000-byte payload needs.
    static func announce(_ session: PostgresSession, _ kind: String, _ words: [String]) async throws {
        var payload = kind
        for word in words {
            if payload.utf8.count + 1 + word.utf8.count > 7_900 {
                try await session.notify(channel, payload: payload)
                payload = kind
            }
            payload += " " + word
        }
        if payload != kind { try await session.notify(channel, payload: payload) }
    }

    func events(for recipient: String, after seq: Int64, limit: Int) async throws
        -> (events: [StreamEvent], gap: Bool)
    {
        try await read { session in
            let events = try await session.rows(
                """
                SELECT seq, type, payload FROM stream_events WHERE recipient_id = \(recipient) AND seq > \(seq)
                ORDER BY seq LIMIT \(limit)
                """
            ).map { row in
                let (seq, type, payload) = try row.decode((Int64, String, String).self)
                return StreamEvent(seq: seq, recipientID: recipient, type: type, payload: payload)
            }
            // Read after the events: a prune that removed some of what they would have held committed before, so
            // its horizon is seen here.
            let pruned = try await session.value("SELECT pruned_through FROM stream_horizon", as: Int64.self) ?? 0
            return (events, pruned > seq)
        }
    }

    func pruneEvents(before date: Date) async throws {
        try await write { session in
            try await session.execute(
                """
                WITH gone AS (DELETE FROM stream_events WHERE created_at < \(StoredInstant(date)) RETURNING seq)
                UPDATE stream_horizon
                SET pruned_through = GREATEST(pruned_through, (SELECT COALESCE(MAX(seq), 0) FROM gone))
                """)
            try await session.execute("DELETE FROM stream_event_keys WHERE seen_at < \(StoredInstant(date))")
        }
    }
}
