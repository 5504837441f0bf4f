import Foundation
import PostgresNIO
import ServiceKit

/// The end of packs: the hour-before warning and the flush of expired packs in small batches. Every replica runs
/// these; each step claims what it acts on, so two replicas never warn of one pack twice or take one post off its
/// pack's counters twice.
extension PostgresGeoStore {
    func claimExpiryWarnings(now: Date, limit: Int) async throws -> [ExpiryWarning] {
        try await write { session in
            // Claimed and marked in one statement: a pack another replica is claiming is skipped, not waited for.
            let packs = try await session.rows(
                """
                UPDATE packs pk SET warned = true
                WHERE pk.id IN (
                    SELECT id FROM packs
                    WHERE expires_at IS NOT NULL AND expires_at > \(now.storedMilliseconds)
                        AND expires_at <= \(now.addingTimeInterval(PackLifetime.warning).storedMilliseconds)
                        AND NOT warned
                    ORDER BY expires_at, id LIMIT \(limit)
                    FOR UPDATE SKIP LOCKED)
                    AND NOT pk.warned
                RETURNING \(unescaped: Self.packColumns)
                """
            ).map(Self.pack)
            var warnings: [ExpiryWarning] = []
            for var pack in packs.sorted(by: Self.expiringFirst) {
                pack.warned = false  // as it was read, before the claim (SQLite answers the same)
                let members = try await session.rows(
                    "SELECT user_id FROM pack_members WHERE pack_id = \(pack.id) AND active ORDER BY user_id"
                ).map { try $0.decode(String.self) }
                warnings.append(ExpiryWarning(pack: pack, members: members))
            }
            return warnings
        }
    }

    /// Soonest expiry first, then by id.
    private static func expiringFirst(_ a: PackRecord, _ b: PackRecord) -> Bool {
        let (aEnd, bEnd) = (a.expiresAt ?? .distantPast, b.expiresAt ?? .distantPast)
        return aEnd != bEnd ? aEnd < bEnd : (a.id ?? 0) < (b.id ?? 0)
    }

    func sweepExpiredStep(now: Date, batch: Int) async throws -> SweepStep {
        try await write { session in
            let expired = try await session.rows(
                """
                SELECT id FROM packs WHERE expires_at IS NOT NULL AND expires_at <= \(now.storedMilliseconds)
                ORDER BY expires_at, id LIMIT 16
                """
            ).map { try $0.decode(Int64.self) }
            guard !expired.isEmpty else { return SweepStep(posts: 0, packs: 0) }
            // Deleting is its own claim: a post another replica deleted first is not counted here.
            let posts = try await session.execute(
                """
                DELETE FROM posts WHERE id IN (
                    SELECT id FROM posts WHERE pack_id = ANY(\(expired)) ORDER BY id LIMIT \(batch))
                RETURNING id
                """)
            guard posts < batch else { return SweepStep(posts: posts, packs: 0) }
            let packs = try await session.execute("DELETE FROM packs WHERE id = ANY(\(expired)) RETURNING id")
            return SweepStep(posts: posts, packs: packs)
        }
    }

    func sweepExpiredOfficialPostsStep(now: Date, batch: Int) async throws -> Int {
        try await write { session in
            var expired: [Int64] = []
            var after: (createdAt: Int64, id: Int64) = (.min, .min)
            // Oldest first, a page at a time, until `batch` expired posts are found (SQLite reads a cursor).
            page: while expired.count < batch {
                let rows = try await session.rows(
                    """
                    SELECT ps.id, ps.created_at, ps.comment_count, ps.up_votes, ps.down_votes
                    FROM posts ps JOIN packs pk ON pk.id = ps.pack_id
                    WHERE pk.official
                        AND ps.created_at <= \(now.addingTimeInterval(-PackLifetime.base).storedMilliseconds)
                        AND (ps.created_at, ps.id) > (\(after.createdAt), \(after.id))
                    ORDER BY ps.created_at, ps.id LIMIT 500
                    """)
                for row in rows {
                    let (id, createdAt, comments, up, down) = try row.decode((Int64, Int64, Int, Int, Int).self)
                    after = (createdAt, id)
                    let end = OfficialPostLifetime.expiry(
                        createdAt: Date(storedMilliseconds: createdAt), comments: comments, upVotes: up,
                        downVotes: down)
                    if end <= now { expired.append(id) }
                    if expired.count == batch { break page }
                }
                if rows.count < 500 { break }
            }
            var deleted = 0
            for id in expired {
                // The counters come from the row deleted: a post another replica deleted first changes nothing here.
                guard
                    let (packID, up, down) = try await session.first(
                        "DELETE FROM posts WHERE id = \(id) RETURNING pack_id, up_votes, down_votes",
                        { try $0.decode((Int64, Int, Int).self) })
                else { continue }
                try await session.execute(
                    """
                    UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - \(up),
                        down_votes = down_votes - \(down)
                    WHERE id = \(packID)
                    """)
                deleted += 1
            }
            return deleted
        }
    }
}
