import Foundation
import GRDB

/// Lists of posts: a pack's, the feed's, discover's and a writer's own.
extension SQLiteGeoStore {
    /// One page of the visible posts of these packs in `order` (less those of writers the viewer muted there), merged from an index walk per pack that reads
    /// only (id, hot), so the cost does not grow with the packs' sizes; then the page's rows. With `tags`, only
    /// posts carrying one, or in a pack carrying one. With `newerThan`, only posts made after that one (ids grow).
    func posts(
        in packs: [PackRecord], order: PostOrder, after cursor: PostCursor?, limit: Int, viewer: String,
        tags: [String], newerThan newest: Int64
    ) async throws -> [PostListing] {
        guard !packs.isEmpty else { return [] }
        return try await read { db in
            let wanted = Set(tags)
            // Fixed SQL per order (no text assembled at run time): newest first, or by hot then newest.
            let all = try db.cachedStatement(
                sql: order == .new
                    ? """
                    SELECT id, hot FROM posts WHERE pack_id = ? AND hidden = 0
                        AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                            WHERE pack_id = posts.pack_id AND muter_id = ?)
                        AND id < ? AND id > ?
                        ORDER BY id DESC LIMIT ?
                    """
                    : """
                    SELECT id, hot FROM posts WHERE pack_id = ? AND hidden = 0
                        AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                            WHERE pack_id = posts.pack_id AND muter_id = ?)
                        AND (hot < ? OR (hot = ? AND id < ?)) AND id > ? ORDER BY hot DESC, id DESC LIMIT ?
                    """)
            let tagged = try db.cachedStatement(
                sql: order == .new
                    ? """
                    SELECT id, hot FROM posts WHERE pack_id = ? AND hidden = 0
                        AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                            WHERE pack_id = posts.pack_id AND muter_id = ?)
                        AND EXISTS (SELECT 1 FROM json_each(posts.tags) WHERE value IN (SELECT value FROM json_each(?)))
                        AND id < ? AND id > ? ORDER BY id DESC LIMIT ?
                    """
                    : """
                    SELECT id, hot FROM posts WHERE pack_id = ? AND hidden = 0
                        AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                            WHERE pack_id = posts.pack_id AND muter_id = ?)
                        AND EXISTS (SELECT 1 FROM json_each(posts.tags) WHERE value IN (SELECT value FROM json_each(?)))
                        AND (hot < ? OR (hot = ? AND id < ?)) AND id > ? ORDER BY hot DESC, id DESC LIMIT ?
                    """)
            let hot = cursor?.hot ?? .greatestFiniteMagnitude
            let after: StatementArguments =
                (order == .new ? [cursor?.id ?? Int64.max] : [hot, hot, cursor?.id ?? Int64.max]) + [newest]
            let merge = PostMerge(order: order, limit: limit)
            func walk(_ pack: PackRecord, count: Int) throws -> [PostMerge.Key] {
                let rows: [Row]
                if wanted.isEmpty || !wanted.isDisjoint(with: pack.tagList) {
                    rows = try Row.fetchAll(all, arguments: [pack.id, viewer] + after + [count])
                } else {
                    rows = try Row.fetchAll(
                        tagged, arguments: [pack.id, viewer, StoredJSON.array(tags)] + after + [count])
                }
                return rows.map { (id: $0[0], hot: $0[1]) }
            }
            var candidates = packs
            if packs.count > limit {
                var firsts: [(pack: PackRecord, key: PostMerge.Key)] = []
                for pack in packs { if let first = try walk(pack, count: 1).first { firsts.append((pack, first)) } }
                candidates = merge.candidates(firsts)
            }
            var keys: [PostMerge.Key] = []
            for pack in candidates { keys += try walk(pack, count: limit) }
            let page = merge.page(keys)
            let rows = Dictionary(
                try PostRecord.fetchAll(db, keys: page).map { ($0.id ?? 0, $0) },
                uniquingKeysWith: { first, _ in first })
            return try Self.listings(db, page.compactMap { rows[$0] }, packs: packs, viewer: viewer)
        }
    }

    /// The newest posts of each pack in turn, packs in the given order (discover's "by distance").
    func postsPackByPack(
        in packs: [PackRecord], after cursor: (pack: Int64, post: Int64)?, limit: Int, viewer: String,
        tags: [String]
    ) async throws -> [PostListing] {
        try await read { db in
            var rows: [PostRecord] = []
            let wanted = Set(tags)
            var started = cursor == nil
            for pack in packs where rows.count < limit {
                var before = Int64.max
                if !started {
                    guard pack.id == cursor?.pack else { continue }
                    started = true
                    before = cursor?.post ?? Int64.max
                }
                let packMatches = wanted.isEmpty || !wanted.isDisjoint(with: pack.tagList)
                rows += try PostRecord.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT * FROM posts WHERE pack_id = ? AND hidden = 0 AND id < ?
                                AND author_id NOT IN (SELECT writer_id FROM pack_mutes
                                    WHERE pack_id = posts.pack_id AND muter_id = ?)
                                AND (? OR EXISTS (SELECT 1 FROM json_each(posts.tags)
                                    WHERE value IN (SELECT value FROM json_each(?))))
                            ORDER BY id DESC LIMIT ?
                            """),
                    arguments: [
                        pack.id, before, viewer, packMatches, StoredJSON.array(tags), limit - rows.count,
                    ])
            }
            return try Self.listings(db, rows, packs: packs, viewer: viewer)
        }
    }

    // MARK: The den

    func denTotals(of user: String, now: Date) async throws -> DenTotals {
        try await read { db in
            let karma = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT up_votes, down_votes, posts FROM karma WHERE user_id = ?"),
                arguments: [user])
            return DenTotals(
                posts: try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) FROM posts JOIN packs ON packs.id = posts.pack_id
                            WHERE posts.author_id = ? AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                            """), arguments: [user, now]) ?? 0,
                comments: try Int.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT count(*) FROM comments JOIN posts ON posts.id = comments.post_id
                                JOIN packs ON packs.id = posts.pack_id
                            WHERE comments.author_id = ? AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                            """), arguments: [user, now]) ?? 0,
                upVotes: karma?[0] ?? 0, downVotes: karma?[1] ?? 0, postsWritten: karma?[2] ?? 0)
        }
    }

    /// My posts in live packs, newest first, hidden ones included.
    func posts(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws -> [PostListing] {
        try await read { db in
            let rows = try PostRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT posts.* FROM posts JOIN packs ON packs.id = posts.pack_id
                        WHERE posts.author_id = ? AND posts.id < ? AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                        ORDER BY posts.id DESC LIMIT ?
                        """), arguments: [author, cursor ?? Int64.max, now, limit])
            let packs = try PackRecord.fetchAll(db, keys: Set(rows.map(\.packId)))
            return try Self.listings(db, rows, packs: packs, viewer: author)
        }
    }

    /// My comments in live packs, newest first, with the post each belongs to.
    func comments(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws
        -> [(CommentRecord, PostListing)]
    {
        try await read { db in
            let comments = try CommentRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT comments.* FROM comments JOIN posts ON posts.id = comments.post_id
                            JOIN packs ON packs.id = posts.pack_id
                        WHERE comments.author_id = ? AND comments.id < ?
                            AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                        ORDER BY comments.id DESC LIMIT ?
                        """), arguments: [author, cursor ?? Int64.max, now, limit])
            let posts = try PostRecord.fetchAll(db, keys: Set(comments.map(\.postId)))
            let packs = try PackRecord.fetchAll(db, keys: Set(posts.map(\.packId)))
            let listings = try Self.listings(db, posts, packs: packs, viewer: author)
            let byID = Dictionary(uniqueKeysWithValues: listings.map { ($0.post.id ?? 0, $0) })
            return comments.compactMap { comment in byID[comment.postId].map { (comment, $0) } }
        }
    }
}
