import Foundation
import GRDB

extension SQLiteNotificationsStore {
    func events(for recipient: String, after seq: Int64, limit: Int) async throws -> (events: [StreamEvent], gap: Bool)
    {
        try await read { db in
            let oldest = try Int64.fetchOne(db.cachedStatement(sql: "SELECT MIN(seq) FROM stream_events"))
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT seq, type, payload FROM stream_events WHERE recipient_id = ? AND seq > ?
                        ORDER BY seq LIMIT ?
                        """), arguments: [recipient, seq, limit])
            let events = rows.map {
                StreamEvent(seq: $0["seq"], recipientID: recipient, type: $0["type"], payload: $0["payload"])
            }
            // Pruning removes the oldest first: if the oldest left is past `seq + 1`, something may be gone.
            // (Written as `oldest - 1`: `seq` is the client's and may be Int64.max; `oldest` is at least 1.)
            let pruned = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'stream_events'"))
            let gap = oldest.map { $0 - 1 > seq } ?? ((pruned ?? 0) > seq)
            return (events, gap)
        }
    }

    func pruneEvents(before date: Date) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM stream_events WHERE created_at < ?", arguments: [date])
        }
    }
}
