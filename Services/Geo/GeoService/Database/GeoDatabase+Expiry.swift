import Foundation
import GRDB

/// The end of packs: the hour-before warning and the flush of expired packs in small batches.
extension GeoDatabase {
    /// A pack about to expire and its active members.
    struct ExpiryWarning: Sendable {
        var pack: PackRecord
        var members: [String]
    }

    /// Marks the packs that expire within the next hour and were not announced yet, and returns them with their
    /// members (at most `limit` packs per call).
    func claimExpiryWarnings(now: Date, limit: Int = 200) async throws -> [ExpiryWarning] {
        try await write { db in
            let packs = try PackRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM packs WHERE expires_at IS NOT NULL AND expires_at > ? AND expires_at <= ?
                        AND warned = 0
                    ORDER BY expires_at LIMIT ?
                    """, arguments: [now, now.addingTimeInterval(PackLifetime.warning), limit])
            return try packs.map { pack in
                try db.execute(sql: "UPDATE packs SET warned = 1 WHERE id = ?", arguments: [pack.id])
                let members = try String.fetchAll(
                    db, sql: "SELECT user_id FROM pack_members WHERE pack_id = ? AND active = 1",
                    arguments: [pack.id])
                return ExpiryWarning(pack: pack, members: members)
            }
        }
    }

    /// What one sweep step removed.
    struct SweepStep: Sendable, Equatable {
        var posts: Int
        var packs: Int
        var isEmpty: Bool { posts == 0 && packs == 0 }
    }

    /// Deletes up to `batch` posts of expired packs (their comments and votes go with them), then the packs left
    /// empty. One short transaction, so requests interleave between steps.
    func sweepExpiredStep(now: Date, batch: Int) async throws -> SweepStep {
        try await write { db in
            let expired = try Int64.fetchAll(
                db,
                sql:
                    "SELECT id FROM packs WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT 16",
                arguments: [now])
            guard !expired.isEmpty else { return SweepStep(posts: 0, packs: 0) }
            let ids = Self.jsonArray(expired)
            try db.execute(
                sql: """
                    DELETE FROM posts WHERE id IN (
                        SELECT id FROM posts WHERE pack_id IN (SELECT value FROM json_each(?)) LIMIT ?)
                    """, arguments: [ids, batch])
            let posts = db.changesCount
            guard posts < batch else { return SweepStep(posts: posts, packs: 0) }
            try db.execute(sql: "DELETE FROM packs WHERE id IN (SELECT value FROM json_each(?))", arguments: [ids])
            return SweepStep(posts: posts, packs: db.changesCount)
        }
    }
}
