import Foundation
import GRDB

/// The end of packs: the hour-before warning and the flush of expired packs in small batches.
extension SQLiteGeoStore {
    /// Marks the packs that expire within the next hour and were not announced yet, and returns them with their
    /// members (at most `limit` packs per call).
    func claimExpiryWarnings(now: Date, limit: Int) async throws -> [ExpiryWarning] {
        try await write { db in
            let packs = try PackRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM packs WHERE expires_at IS NOT NULL AND expires_at > ? AND expires_at <= ?
                            AND warned = 0
                        ORDER BY expires_at LIMIT ?
                        """), arguments: [now, now.addingTimeInterval(PackLifetime.warning), limit])
            return try packs.map { pack in
                try db.execute(sql: "UPDATE packs SET warned = 1 WHERE id = ?", arguments: [pack.id])
                let members = try String.fetchAll(
                    db.cachedStatement(sql: "SELECT user_id FROM pack_members WHERE pack_id = ? AND active = 1"),
                    arguments: [pack.id])
                return ExpiryWarning(pack: pack, members: members)
            }
        }
    }

    /// Deletes up to `batch` posts of expired packs (their comments and votes go with them), then the packs left
    /// empty. One short transaction, so requests interleave between steps.
    func sweepExpiredStep(now: Date, batch: Int) async throws -> SweepStep {
        try await write { db in
            let expired = try Int64.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT id FROM packs WHERE expires_at IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT 16"
                ), arguments: [now])
            guard !expired.isEmpty else { return SweepStep(posts: 0, packs: 0) }
            let ids = StoredJSON.array(expired)
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

    /// Deletes up to `batch` expired posts of official packs (``OfficialPostLifetime``; comments and votes go with
    /// them) and takes them off their packs' counters; the packs stay. Only posts older than the shortest lifetime
    /// are looked at, oldest first.
    func sweepExpiredOfficialPostsStep(now: Date, batch: Int) async throws -> Int {
        try await write { db in
            let candidates = try Row.fetchCursor(
                db,
                sql: """
                    SELECT posts.id, posts.pack_id, posts.created_at, posts.comment_count, posts.up_votes,
                        posts.down_votes
                    FROM posts JOIN packs ON packs.id = posts.pack_id
                    WHERE packs.official = 1 AND posts.created_at <= ? ORDER BY posts.created_at, posts.id
                    """,
                arguments: [now.addingTimeInterval(-PackLifetime.base)])
            var expired: [(id: Int64, pack: Int64, up: Int, down: Int)] = []
            while expired.count < batch, let row = try candidates.next() {
                let (up, down): (Int, Int) = (row[4], row[5])
                let end = OfficialPostLifetime.expiry(
                    createdAt: row[2], comments: row[3], upVotes: up, downVotes: down)
                if end <= now { expired.append((row[0], row[1], up, down)) }
            }
            for post in expired {
                try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [post.id])
                try db.execute(
                    sql: """
                        UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - ?,
                            down_votes = down_votes - ?
                        WHERE id = ?
                        """, arguments: [post.up, post.down, post.pack])
            }
            return expired.count
        }
    }
}
