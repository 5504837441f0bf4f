import Foundation
import GRDB
import PlatformKit

/// The orders posts are listed in, and where a page starts.
enum PostOrder: String, Sendable {
    /// Newest first.
    case new
    /// By the time-decayed vote score (``PostRanking/hot(up:down:createdAt:)``), then newest.
    case top
}

/// The position after the last post of a page.
struct PostCursor: Codable, Sendable {
    var id: Int64
    var hot: Double?
}

/// Anonymous posts, comments and votes.
extension GeoDatabase {
    /// Adds a post under the writer's pseudonym in a live pack they are an active member of.
    func createPost(
        pack packID: Int64, author: String, title: String, body: String, tags: [String], now: Date
    ) async throws -> PostRow {
        try await writer.write { db in
            guard let pseudonym = try Self.activePseudonym(db, pack: packID, user: author, now: now) else {
                throw Problem.forbidden("not_a_member", "Join the pack to post in it.")
            }
            var post = PostRow(
                id: nil, packId: packID, author: author, pseudonym: pseudonym, title: title, body: body,
                tags: Self.jsonArray(tags), now: now)
            try post.insert(db)
            try db.execute(sql: "UPDATE packs SET post_count = post_count + 1 WHERE id = ?", arguments: [packID])
            try Self.refreshExpiry(db, packID: packID, now: now)
            return post
        }
    }

    /// A post with its pack and the viewer's vote, when the post exists, is not hidden (except to its writer)
    /// and its pack is live.
    func post(_ id: Int64, viewer: String, now: Date) async throws -> PostListing? {
        try await writer.read { db in
            guard let post = try PostRow.fetchOne(db, key: id), !post.hidden || post.authorId == viewer,
                let pack = try PackRow.fetchOne(db, key: post.packId), pack.isLive(at: now)
            else { return nil }
            return PostListing(post: post, pack: pack, myVote: try Self.votes(db, of: viewer, on: [id])[id] ?? 0)
        }
    }

    /// Deletes a post with its comments and votes; its pack's counters drop, the writer's earned votes stay.
    func deletePost(_ id: Int64) async throws {
        try await writer.write { db in
            guard let post = try PostRow.fetchOne(db, key: id) else { throw Problem.notFound("The post") }
            try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [id])
            try db.execute(
                sql: """
                    UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - ?, down_votes = down_votes - ?
                    WHERE id = ?
                    """, arguments: [post.upVotes, post.downVotes, post.packId])
        }
    }

    /// Sets (1, -1) or withdraws (0) the voter's vote. A post whose score falls to ``PackLimits/hidingScore`` is
    /// hidden for good. Writers cannot vote on their own posts.
    func vote(_ postID: Int64, voter: String, value: Int, now: Date) async throws -> PostListing {
        try await writer.write { db in
            guard var post = try PostRow.fetchOne(db, key: postID), !post.hidden,
                let pack = try PackRow.fetchOne(db, key: post.packId), pack.isLive(at: now)
            else { throw Problem.notFound("The post") }
            guard post.authorId != voter else {
                throw Problem.forbidden("own_post", "You cannot vote on your own post.")
            }
            guard try Self.activePseudonym(db, pack: post.packId, user: voter, now: now) != nil else {
                throw Problem.forbidden("not_a_member", "Join the pack to vote in it.")
            }
            let old =
                try Int.fetchOne(
                    db, sql: "SELECT value FROM votes WHERE post_id = ? AND user_id = ?", arguments: [postID, voter])
                ?? 0
            guard old != value else { return PostListing(post: post, pack: pack, myVote: value) }
            if value == 0 {
                try db.execute(sql: "DELETE FROM votes WHERE post_id = ? AND user_id = ?", arguments: [postID, voter])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO votes (post_id, user_id, value) VALUES (?, ?, ?)
                        ON CONFLICT (post_id, user_id) DO UPDATE SET value = excluded.value
                        """, arguments: [postID, voter, value])
            }
            let up = (value == 1 ? 1 : 0) - (old == 1 ? 1 : 0)
            let down = (value == -1 ? 1 : 0) - (old == -1 ? 1 : 0)
            post.upVotes += up
            post.downVotes += down
            post.hot = PostRanking.hot(up: post.upVotes, down: post.downVotes, createdAt: post.createdAt)
            post.hidden = post.score <= PackLimits.hidingScore
            try post.update(db)
            try db.execute(
                sql: "UPDATE packs SET up_votes = up_votes + ?, down_votes = down_votes + ? WHERE id = ?",
                arguments: [up, down, post.packId])
            try db.execute(
                sql: """
                    INSERT INTO karma (user_id, up_votes, down_votes) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET up_votes = up_votes + excluded.up_votes,
                        down_votes = down_votes + excluded.down_votes
                    """, arguments: [post.authorId, up, down])
            try Self.refreshExpiry(db, packID: post.packId, now: now)
            return PostListing(post: post, pack: pack, myVote: value)
        }
    }

    // MARK: Comments

    func createComment(on postID: Int64, author: String, body: String, now: Date) async throws -> CommentRow {
        try await writer.write { db in
            guard let post = try PostRow.fetchOne(db, key: postID), !post.hidden else {
                throw Problem.notFound("The post")
            }
            guard let pseudonym = try Self.activePseudonym(db, pack: post.packId, user: author, now: now) else {
                throw Problem.forbidden("not_a_member", "Join the pack to comment in it.")
            }
            var comment = CommentRow(
                id: nil, postId: postID, authorId: author, pseudonym: pseudonym, body: body, createdAt: now)
            try comment.insert(db)
            try db.execute(
                sql: "UPDATE posts SET comment_count = comment_count + 1 WHERE id = ?", arguments: [postID])
            return comment
        }
    }

    /// A post's comments, oldest first, after the cursor's id.
    func comments(on postID: Int64, after cursor: Int64?, limit: Int) async throws -> [CommentRow] {
        try await writer.read { db in
            try CommentRow.fetchAll(
                db, sql: "SELECT * FROM comments WHERE post_id = ? AND id > ? ORDER BY id LIMIT ?",
                arguments: [postID, cursor ?? 0, limit])
        }
    }

    func comment(_ id: Int64) async throws -> CommentRow? {
        try await writer.read { db in try CommentRow.fetchOne(db, key: id) }
    }

    func deleteComment(_ id: Int64) async throws {
        try await writer.write { db in
            guard let comment = try CommentRow.fetchOne(db, key: id) else { throw Problem.notFound("The comment") }
            try db.execute(sql: "DELETE FROM comments WHERE id = ?", arguments: [id])
            try db.execute(
                sql: "UPDATE posts SET comment_count = comment_count - 1 WHERE id = ?", arguments: [comment.postId])
        }
    }

    // MARK: Lists

    /// One page of the visible posts of these packs in `order`, merged from an index walk per pack that reads
    /// only (id, hot), so the cost does not grow with the packs' sizes; then the page's rows. With `tags`, only
    /// posts carrying one, or in a pack carrying one.
    func posts(
        in packs: [PackRow], order: PostOrder, after cursor: PostCursor?, limit: Int, viewer: String,
        tags: [String] = []
    ) async throws -> [PostListing] {
        guard !packs.isEmpty else { return [] }
        return try await writer.read { db in
            let wanted = Set(tags)
            let bound =
                order == .new
                ? "id < ? ORDER BY id DESC" : "(hot < ? OR (hot = ? AND id < ?)) ORDER BY hot DESC, id DESC"
            let all = try db.cachedStatement(
                sql: "SELECT id, hot FROM posts WHERE pack_id = ? AND hidden = 0 AND \(bound) LIMIT ?")
            let tagged = try db.cachedStatement(
                sql: """
                    SELECT id, hot FROM posts WHERE pack_id = ? AND hidden = 0
                        AND EXISTS (SELECT 1 FROM json_each(posts.tags) WHERE value IN (SELECT value FROM json_each(?)))
                        AND \(bound) LIMIT ?
                    """)
            let hot = cursor?.hot ?? .greatestFiniteMagnitude
            let after: StatementArguments =
                order == .new ? [cursor?.id ?? Int64.max] : [hot, hot, cursor?.id ?? Int64.max]
            typealias Key = (id: Int64, hot: Double)
            func precedes(_ a: Key, _ b: Key) -> Bool { order == .new ? a.id > b.id : (a.hot, a.id) > (b.hot, b.id) }
            func walk(_ pack: PackRow, count: Int) throws -> [Key] {
                let rows: [Row]
                if wanted.isEmpty || !wanted.isDisjoint(with: pack.tagList) {
                    rows = try Row.fetchAll(all, arguments: [pack.id] + after + [count])
                } else {
                    rows = try Row.fetchAll(tagged, arguments: [pack.id, Self.jsonArray(tags)] + after + [count])
                }
                return rows.map { (id: $0[0], hot: $0[1]) }
            }
            // With more packs than the page holds, each pack's first post comes first: the page's last post ranks
            // no lower than the limit-th of those, so a pack whose first post ranks below it adds nothing and is
            // not walked further.
            var candidates = packs
            if packs.count > limit {
                var firsts: [(pack: PackRow, key: Key)] = []
                for pack in packs { if let first = try walk(pack, count: 1).first { firsts.append((pack, first)) } }
                firsts.sort { precedes($0.key, $1.key) }
                if firsts.count > limit {
                    let threshold = firsts[limit - 1].key
                    candidates = firsts.filter { !precedes(threshold, $0.key) }.map(\.pack)
                } else {
                    candidates = firsts.map(\.pack)
                }
            }
            var keys: [Key] = []
            for pack in candidates { keys += try walk(pack, count: limit) }
            keys.sort(by: precedes)
            let page = keys.prefix(limit).map(\.id)
            let rows = Dictionary(
                try PostRow.fetchAll(db, keys: page).map { ($0.id ?? 0, $0) }, uniquingKeysWith: { first, _ in first })
            return try Self.listings(db, page.compactMap { rows[$0] }, packs: packs, viewer: viewer)
        }
    }

    /// The newest posts of each pack in turn, packs in the given order (discover's "by distance").
    func postsPackByPack(
        in packs: [PackRow], after cursor: (pack: Int64, post: Int64)?, limit: Int, viewer: String,
        tags: [String] = []
    ) async throws -> [PostListing] {
        try await writer.read { db in
            var rows: [PostRow] = []
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
                rows += try PostRow.fetchAll(
                    db,
                    sql: """
                        SELECT * FROM posts WHERE pack_id = ? AND hidden = 0 AND id < ?
                            AND (? OR EXISTS (SELECT 1 FROM json_each(posts.tags)
                                WHERE value IN (SELECT value FROM json_each(?))))
                        ORDER BY id DESC LIMIT ?
                        """,
                    arguments: [pack.id, before, packMatches, Self.jsonArray(tags), limit - rows.count])
            }
            return try Self.listings(db, rows, packs: packs, viewer: viewer)
        }
    }

    // MARK: The den

    struct DenTotals: Sendable {
        var posts: Int
        var comments: Int
        var upVotes: Int
        var downVotes: Int
    }

    func denTotals(of user: String, now: Date) async throws -> DenTotals {
        try await writer.read { db in
            let karma = try Row.fetchOne(
                db, sql: "SELECT up_votes, down_votes FROM karma WHERE user_id = ?", arguments: [user])
            return DenTotals(
                posts: try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM posts JOIN packs ON packs.id = posts.pack_id
                        WHERE posts.author_id = ? AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                        """, arguments: [user, now]) ?? 0,
                comments: try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM comments JOIN posts ON posts.id = comments.post_id
                            JOIN packs ON packs.id = posts.pack_id
                        WHERE comments.author_id = ? AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                        """, arguments: [user, now]) ?? 0,
                upVotes: karma?[0] ?? 0, downVotes: karma?[1] ?? 0)
        }
    }

    /// My posts in live packs, newest first, hidden ones included.
    func posts(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws -> [PostListing] {
        try await writer.read { db in
            let rows = try PostRow.fetchAll(
                db,
                sql: """
                    SELECT posts.* FROM posts JOIN packs ON packs.id = posts.pack_id
                    WHERE posts.author_id = ? AND posts.id < ? AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                    ORDER BY posts.id DESC LIMIT ?
                    """, arguments: [author, cursor ?? Int64.max, now, limit])
            let packs = try PackRow.fetchAll(db, keys: Set(rows.map(\.packId)))
            return try Self.listings(db, rows, packs: packs, viewer: author)
        }
    }

    /// My comments in live packs, newest first, with the post each belongs to.
    func comments(by author: String, before cursor: Int64?, limit: Int, now: Date) async throws
        -> [(CommentRow, PostListing)]
    {
        try await writer.read { db in
            let comments = try CommentRow.fetchAll(
                db,
                sql: """
                    SELECT comments.* FROM comments JOIN posts ON posts.id = comments.post_id
                        JOIN packs ON packs.id = posts.pack_id
                    WHERE comments.author_id = ? AND comments.id < ?
                        AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                    ORDER BY comments.id DESC LIMIT ?
                    """, arguments: [author, cursor ?? Int64.max, now, limit])
            let posts = try PostRow.fetchAll(db, keys: Set(comments.map(\.postId)))
            let packs = try PackRow.fetchAll(db, keys: Set(posts.map(\.packId)))
            let listings = try Self.listings(db, posts, packs: packs, viewer: author)
            let byID = Dictionary(uniqueKeysWithValues: listings.map { ($0.post.id ?? 0, $0) })
            return comments.compactMap { comment in byID[comment.postId].map { (comment, $0) } }
        }
    }

    // MARK: Shared steps

    /// The user's pseudonym when they are an active member of the live pack.
    static func activePseudonym(_ db: Database, pack: Int64, user: String, now: Date) throws -> String? {
        try String.fetchOne(
            db,
            sql: """
                SELECT pack_members.pseudonym FROM pack_members JOIN packs ON packs.id = pack_members.pack_id
                WHERE pack_members.pack_id = ? AND pack_members.user_id = ? AND pack_members.active = 1
                    AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                """, arguments: [pack, user, now])
    }

    static func votes(_ db: Database, of user: String, on postIDs: [Int64]) throws -> [Int64: Int] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT post_id, value FROM votes WHERE user_id = ? AND post_id IN (SELECT value FROM json_each(?))
                """, arguments: [user, jsonArray(postIDs)])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
    }

    static func listings(_ db: Database, _ posts: [PostRow], packs: [PackRow], viewer: String) throws
        -> [PostListing]
    {
        let packsByID = Dictionary(packs.map { ($0.id ?? 0, $0) }) { first, _ in first }
        let votes = try votes(db, of: viewer, on: posts.compactMap(\.id))
        return posts.compactMap { post in
            packsByID[post.packId].map { PostListing(post: post, pack: $0, myVote: votes[post.id ?? 0] ?? 0) }
        }
    }
}

extension PostRow {
    /// A new post with no votes yet.
    init(
        id: Int64?, packId: Int64, author: String, pseudonym: String, title: String, body: String, tags: String,
        now: Date
    ) {
        self.init(
            id: id, packId: packId, authorId: author, pseudonym: pseudonym, title: title, body: body, tags: tags,
            upVotes: 0, downVotes: 0, commentCount: 0, hot: PostRanking.hot(up: 0, down: 0, createdAt: now),
            hidden: false, createdAt: now)
    }
}
