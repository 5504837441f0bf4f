import Foundation
import GRDB
import PlatformKit

// Ended sessions, published for the revocation feed.
extension SQLiteIdentityStore {
    /// Publishes ended sessions in the transaction that ends them, so no reader of the feed can miss one;
    /// an access token issued up to `now` lives at most one token lifetime longer. Entries an hour past that
    /// are pruned here (the sequence is AUTOINCREMENT, so pruning never lets a number come back).
    static func recordRevocations(_ db: Database, _ sessionIDs: [String], now: Date) throws {
        guard !sessionIDs.isEmpty else { return }
        let until = now.addingTimeInterval(TokenSigner.accessTokenLifetime)
        for id in sessionIDs {
            try db.execute(
                sql: "INSERT INTO session_revocations (session_id, expires_at) VALUES (?, ?)", arguments: [id, until])
        }
        try db.execute(
            sql: "DELETE FROM session_revocations WHERE expires_at < ?", arguments: [now.addingTimeInterval(-3600)])
    }

    /// Revocations after `sequence` in order (at most `limit`), or with `sequence` nil every one still in force.
    func revocations(after sequence: Int64?, now: Date, limit: Int) async throws -> SessionRevocationPage {
        try await read { db in
            let records: [SessionRevocationRecord]
            if let sequence {
                records = try SessionRevocationRecord.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT * FROM session_revocations WHERE sequence > ? ORDER BY sequence LIMIT ?"),
                    arguments: [sequence, limit])
            } else {
                records = try SessionRevocationRecord.fetchAll(
                    db.cachedStatement(sql: "SELECT * FROM session_revocations WHERE expires_at > ? ORDER BY sequence"),
                    arguments: [now])
            }
            let highest =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'session_revocations'")) ?? 0
            // A limited page ends at its last entry, so the next poll continues from there.
            let last = sequence != nil && records.count == limit ? records.last?.sequence ?? highest : highest
            let items = records.map {
                SessionRevocation(sequence: $0.sequence, sessionId: $0.sessionId, until: $0.expiresAt)
            }
            return SessionRevocationPage(items: items, last: last)
        }
    }
}
