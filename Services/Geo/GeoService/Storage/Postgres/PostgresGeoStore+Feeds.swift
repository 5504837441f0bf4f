import Foundation
import PostgresNIO
import ServiceKit

/// Lists of posts: a pack's, the feed's, discover's and a writer's own. Each list reads one snapshot (REPEATABLE
/// READ), as SQLite's one read transaction does.
extension PostgresGeoStore {
    func posts(
        in packs: [PackRecord], order: PostOrder, after cursor: PostCursor?, limit: Int, viewer: String,
        tags: [String], newerThan newest: Int64
    ) async throws -> [PostListing] {
        guard !packs.isEmpty else { return [] }
        return try await write(.repeatableRead) { session in
            let wanted = Set(tags)
            let hot = cursor?.hot ?? .greatestFiniteMagnitude
            let before = cursor?.id ?? Int64.max
            // The tagged walk keeps posts carrying one of the tags (SQLite: json_each of both arrays).
            let tagged = tags.filter { !Self.holdsNUL($0) }
            let merge = PostMerge(order: order, limit: limit)
            func walk(_ pack: PackRecord, count: Int) async throws -> [PostMerge.Key] {
                let packID = pack.id ?? 0
                let all = wanted.isEmpty || !wanted.isDisjoint(with: pack.tagList)
                let rows: [PostgresRow]
                switch order {
                case .new:
                    rows = try await session.rows(
                        """
                        SELECT id, hot FROM posts WHERE pack_id = \(packID) AND NOT hidden
                            AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                                WHERE pack_id = \(packID) AND muter_id = \(viewer))
                            AND (\(all) OR tags::jsonb ?| \(tagged)::text[])
                            AND id < \(before) AND id > \(newest) ORDER BY id DESC LIMIT \(count)
                        """)
                case .top:
                    rows = try await session.rows(
                        """
                        SELECT id, hot FROM posts WHERE pack_id = \(packID) AND NOT hidden
                            AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                                WHERE pack_id = \(packID) AND muter_id = \(viewer))
                            AND (\(all) OR tags::jsonb ?| \(tagged)::text[])
                            AND (hot < \(hot) OR (hot = \(hot) AND id < \(before))) AND id > \(newest)
                            ORDER BY hot DESC, id DESC LIMIT \(count)
                        """)
                }
                return try rows.map { row in
                    let (id, hot) = try row.decode((Int64, Double).self)
                    return (id: id, hot: hot)
                }
            }
            var candidates = packs
            if packs.count > limit {
                var firsts: [(pack: PackRecord, key: PostMerge.Key)] = []
                for pack in packs {
                    if let first = try await walk(pack, count: 1).first { firsts.append((pack, first)) }
                }
                candidates = merge.candidates(firsts)
            }
            var keys: [PostMerge.Key] = []
            for pack in candidates { keys += try await walk(pack, count: limit) }
            let page = merge.page(keys)
            let rows = Dictionary(
                try await session.rows(
                    "SELECT \(unescaped: Self.postColumns) FROM posts ps WHERE ps.id = ANY(\(Array(page)))"
                ).map(Self.post).map { ($0.id ?? 0, $0) },
                uniquingKeysWith: { first, _ in first })
            return try await Self.listings(session, page.compactMap { rows[$0] }, packs: packs, viewer: viewer)
        }
    }

    func postsPackByPack(
        in packs: [PackRecord], after cursor: (pack: Int64, post: Int64)?, limit: Int, viewer: String,
        tags: [String]
    ) async throws -> [PostListing] {
        try await write(.repeatableRead) { session in
            var rows: [PostRecord] = []
            let wanted = Set(tags)
            let tagged = tags.filter { !Self.holdsNUL($0) }
            var started = cursor == nil
            for pack in packs where rows.count < limit {
                var before = Int64.max
                if !started {
                    guard pack.id == cursor?.pack else { continue }
                    started = true
                    before = cursor?.post ?? Int64.max
                }
                let packMatches = wanted.isEmpty || !wanted.isDisjoint(with: pack.tagList)
                rows += try await session.rows(
                    """
                    SELECT \(unescaped: Self.postColumns) FROM posts ps
                    WHERE ps.pack_id = \(pack.id ?? 0) AND NOT ps.hidden AND ps.id < \(before)
                        AND ps.author_id NOT IN (SELECT writer_id FROM pack_mutes
                            WHERE pack_id = \(pack.id ?? 0) AND muter_id = \(viewer))
                        AND (\(packMatches) OR ps.tags::jsonb ?| \(tagged)::text[])
                    ORDER BY ps.id DESC LIMIT \(limit - rows.count)
                    """
                ).map(Self.post)
            }
            return try await Self.listings(session, rows, packs: packs, viewer: viewer)
        }
    }

    // MARK: The den

    func denTotals(of user: String, now: Date) async throws -> DenTotals {
        try await write(.repeatableRead) { session in
            let karma = try await session.first(
                "SELECT up_votes, down_votes, posts FROM karma WHERE user_id = \(user)",
                { try $0.decode((Int, Int, Int).self) })
            let posts = try await session.value(
                """
                SELECT count(*) FROM posts ps JOIN packs pk ON pk.id = ps.pack_id
                WHERE ps.author_id = \(user) AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                """, as: Int.self)
            let comments = try await session.value(
                """
                SELECT count(*) FROM comments c JOIN posts ps ON ps.id = c.post_id JOIN packs pk ON pk.id = ps.pack_id
                WHERE c.author_id = \(user) AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                """, as: Int.self)
            return DenTotals(
                posts: posts ?? 0, comments: comments ?? 0, upVotes: karma?.0 ?? 0, downVotes: karma?.1 ?? 0,
                postsWritten: karma?.2 ?? 0)
        }
    }

    func posts(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws -> [PostListing] {
        try await write(.repeatableRead) { session in
            let rows = try await session.rows(
                """
                SELECT \(unescaped: Self.postColumns) FROM posts ps JOIN packs pk ON pk.id = ps.pack_id
                WHERE ps.author_id = \(author) AND ps.id < \(cursor ?? Int64.max)
                    AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                ORDER BY ps.id DESC LIMIT \(limit)
                """
            ).map(Self.post)
            let packs = try await Self.packs(session, ids: Set(rows.map(\.packId)))
            return try await Self.listings(session, rows, packs: packs, viewer: author)
        }
    }

    func comments(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws
        -> [(CommentRecord, PostListing)]
    {
        try await write(.repeatableRead) { session in
            let comments = try await session.rows(
                """
                SELECT \(unescaped: Self.commentColumns) FROM comments c JOIN posts ps ON ps.id = c.post_id
                    JOIN packs pk ON pk.id = ps.pack_id
                WHERE c.author_id = \(author) AND c.id < \(cursor ?? Int64.max)
                    AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
                ORDER BY c.id DESC LIMIT \(limit)
                """
            ).map(Self.comment)
            let postIDs = Array(Set(comments.map(\.postId)))
            let posts =
                postIDs.isEmpty
                ? []
                : try await session.rows(
                    "SELECT \(unescaped: Self.postColumns) FROM posts ps WHERE ps.id = ANY(\(postIDs)) ORDER BY ps.id"
                ).map(Self.post)
            let packs = try await Self.packs(session, ids: Set(posts.map(\.packId)))
            let listings = try await Self.listings(session, posts, packs: packs, viewer: author)
            let byID = Dictionary(uniqueKeysWithValues: listings.map { ($0.post.id ?? 0, $0) })
            return comments.compactMap { comment in byID[comment.postId].map { (comment, $0) } }
        }
    }
}
