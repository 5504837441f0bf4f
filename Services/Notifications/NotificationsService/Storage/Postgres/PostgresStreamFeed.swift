import Foundation
import Logging
import PostgresNIO
import ServiceKit

/// Hands what any replica stored to this replica's live connections: each replica runs one, fed by the
/// `LISTEN/NOTIFY` notices of ``PostgresNotificationsStore/channel`` in commit order, one at a time.
///
/// A notice names the recipients of a transaction's events with the lowest number each got (`e 12:ann 13:bob`); the
/// feed reads, for those with a connection here, every event past the last one it handed them (or past the one
/// before the notice's, for a user it has handed nothing yet), and hands them on in sequence order. Each event thus
/// reaches each connection once, and none is skipped: a recipient's numbers follow commit order (the stream lock).
/// Ended sessions come the same way (`s <session> ...`), in order with the events.
struct PostgresStreamFeed: Sendable {
    let database: PostgresServiceDatabase
    let hub: EventHub
    let logger: Logger

    static let eventsKind = "e"
    static let endedSessionsKind = "s"

    /// One notice's payload; `nil` when the listener lost its connection and notices may have been missed.
    func receive(_ payload: String?) async {
        guard let payload else { return await catchUp() }
        let words = payload.split(separator: " ")
        switch words.first.map(String.init) {
        case Self.eventsKind?:
            var lowest: [String: Int64] = [:]
            for word in words.dropFirst() {
                guard let colon = word.firstIndex(of: ":"), let seq = Int64(word[..<colon]) else { continue }
                let recipient = String(word[word.index(after: colon)...])
                lowest[recipient] = min(lowest[recipient] ?? seq, seq)
            }
            await handOn(
                hub.resumePoints(lowest.keys).map { point in
                    (point.user, point.delivered ?? (lowest[point.user] ?? 1) - 1)
                })
        case Self.endedSessionsKind?:
            hub.endSessions(words.dropFirst().map(String.init))
        default:
            break
        }
    }

    /// After a lost listener (and when it first listens): users handed something, or whose connections resumed after
    /// a known event, catch up from there; the others' connections close, and their clients resume with
    /// `Last-Event-ID` (this replica cannot tell what they missed). A stream that resumed while a restarted replica's
    /// listener was not yet in place was closed before it saw anything, and its client had to come back.
    private func catchUp() async {
        let users = hub.connectedUsers()
        hub.disconnect(users.filter { $0.delivered == nil }.map(\.user))
        await handOn(users.compactMap { user in user.delivered.map { (user.user, $0) } })
    }

    /// Reads and hands on every event of these users past their number.
    private func handOn(_ points: [(user: String, after: Int64)]) async {
        guard !points.isEmpty else { return }
        do {
            let events = try await database.read { session in
                try await session.rows(
                    """
                    SELECT e.seq, e.recipient_id, e.type, e.payload
                    FROM unnest(\(points.map(\.user))::text[], \(points.map(\.after))::bigint[]) AS p(recipient, after)
                    JOIN stream_events e ON e.recipient_id = p.recipient AND e.seq > p.after
                    ORDER BY e.seq
                    """
                ).map { row in
                    let (seq, recipient, type, payload) = try row.decode((Int64, String, String, String).self)
                    return StreamEvent(seq: seq, recipientID: recipient, type: type, payload: payload)
                }
            }
            events.forEach(hub.publish)
        } catch {
            // Not read: close these connections rather than skip their events; the clients resume from the log.
            logger.warning(
                "could not read stream events for live connections; closing them",
                metadata: ["error": "\(String(reflecting: error))"])
            hub.disconnect(points.map(\.user))
        }
    }
}
