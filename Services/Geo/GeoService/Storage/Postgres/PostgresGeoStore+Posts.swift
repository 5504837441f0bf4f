import Foundation
import PostgresNIO
import ServiceKit

/// Anonymous posts, comments and votes. Each write locks the pack it writes in, reads the post it needs and checks,
/// in its transaction, that the writer may: a live pack, inside a locked pack's radius, a member.
extension PostgresGeoStore {
    /// A post with its pack and the viewer's vote, when the post exists, is not hidden (except to its writer)
    /// and its pack is live; with `lock`, the pack's row is locked first.
    static func post(_ session: PostgresSession, _ id: Int64, viewer: String, now: Date, lock: Bool = false)
        async throws -> PostListing?
    {
        if lock {
            // The pack first, then the post: every writer of a pack takes its locks in this order.
            guard let packID = try await session.value("SELECT pack_id FROM posts WHERE id = \(id)", as: Int64.self)
            else { return nil }
            _ = try await pack(session, packID, lock: true)
        }
        guard
            let post = try await session.first(
                "SELECT \(unescaped: postColumns) FROM posts ps WHERE ps.id = \(id)", Self.post),
            !post.hidden || post.authorId == viewer,
            let pack = try await pack(session, post.packId), pack.isLive(at: now)
        else { return nil }
        return PostListing(post: post, pack: pack, myVote: try await votes(session, of: viewer, on: [id])[id] ?? 0)
    }

    static func readablePost(
        _ session: PostgresSession, _ id: Int64, viewer: String, at position: ClientPosition?, now: Date,
        lock: Bool = false
    ) async throws -> PostListing {
        guard let listing = try await post(session, id, viewer: viewer, now: now, lock: lock) else {
            throw GeoError.notFound("The post")
        }
        try listing.pack.fence.check(position)
        return listing
    }

    func readablePost(_ id: Int64, viewer: String, at position: ClientPosition?, now: Date) async throws
        -> PostListing
    {
        try await read { session in try await Self.readablePost(session, id, viewer: viewer, at: position, now: now) }
    }

    func createPost(
        pack packID: Int64, author: String, title: String, body: String, tags: [String], at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date
    ) async throws -> PostListing {
        try await write { session in
            let pack = try await Self.livePack(session, packID, now: now, lock: true)
            try pack.fence.check(position)
            try admit()
            guard let pseudonym = try await Self.activePseudonym(session, pack: packID, user: author, now: now) else {
                throw GeoError.joinToWrite(action: "post")
            }
            var post = PostRecord(
                id: nil, packId: packID, author: author, pseudonym: pseudonym, title: title, body: body,
                tags: StoredJSON.array(tags), now: now)
            post.id = try await session.value(
                """
                INSERT INTO posts (pack_id, author_id, pseudonym, title, body, tags, up_votes, down_votes, comment_count,
                    hot, hidden, created_at)
                VALUES (\(packID), \(author), \(pseudonym), \(title), \(body), \(post.tags), 0, 0, 0, \(post.hot), false,
                    \(now.storedMilliseconds))
                RETURNING id
                """, as: Int64.self)
            try await session.execute("UPDATE packs SET post_count = post_count + 1 WHERE id = \(packID)")
            try await Self.earnKarma(session, author, up: 0, down: 0, posts: 1)
            try await Self.refreshExpiry(session, packID: packID, now: now)
            return PostListing(post: post, pack: pack, myVote: 0)
        }
    }

    func deletePost(_ id: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws {
        try await write { session in
            guard let listing = try await Self.post(session, id, viewer: viewer, now: now, lock: true) else {
                throw GeoError.notFound("The post")
            }
            try PackAccess.requireMayDelete(
                author: listing.post.authorId, alpha: try await Self.actingAlpha(session, of: listing.pack),
                viewer: viewer, isAdmin: isAdmin, thing: "post")
            let post = listing.post
            try await session.execute("DELETE FROM posts WHERE id = \(id)")
            try await session.execute(
                """
                UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - \(post.upVotes),
                    down_votes = down_votes - \(post.downVotes)
                WHERE id = \(post.packId)
                """)
        }
    }

    func vote(_ postID: Int64, voter: String, value: Int, at position: ClientPosition?, now: Date) async throws
        -> PostListing
    {
        try await write { session in
            let listing = try await Self.readablePost(
                session, postID, viewer: voter, at: position, now: now, lock: true)
            var post = listing.post
            let pack = listing.pack
            guard !post.hidden else { throw GeoError.notFound("The post") }
            guard post.authorId != voter else { throw GeoError.ownPost }
            guard try await Self.activePseudonym(session, pack: post.packId, user: voter, now: now) != nil else {
                throw GeoError.joinToWrite(action: "vote")
            }
            let old = listing.myVote
            guard old != value else { return PostListing(post: post, pack: pack, myVote: value) }
            if value == 0 {
                try await session.execute("DELETE FROM votes WHERE post_id = \(postID) AND user_id = \(voter)")
            } else {
                try await session.execute(
                    """
                    INSERT INTO votes (post_id, user_id, value) VALUES (\(postID), \(voter), \(value))
                    ON CONFLICT (post_id, user_id) DO UPDATE SET value = excluded.value
                    """)
            }
            let (up, down) = post.tally.change(from: old, to: value)
            post.hot = PostRanking.hot(up: post.upVotes, down: post.downVotes, createdAt: post.createdAt)
            post.hidden = post.tally.hides
            try await session.execute(
                """
                UPDATE posts SET up_votes = \(post.upVotes), down_votes = \(post.downVotes), hot = \(post.hot),
                    hidden = \(post.hidden)
                WHERE id = \(postID)
                """)
            try await session.execute(
                "UPDATE packs SET up_votes = up_votes + \(up), down_votes = down_votes + \(down) WHERE id = \(post.packId)"
            )
            try await Self.earnKarma(session, post.authorId, up: up, down: down, posts: 0)
            try await Self.refreshExpiry(session, packID: post.packId, now: now)
            return PostListing(post: post, pack: pack, myVote: value)
        }
    }

    // MARK: Comments

    func createComment(
        on postID: Int64, author: String, body: String, at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date, notices: ChangeNotices<CommentMade>?
    ) async throws -> CommentMade {
        try await database.write(reporting: notices) { session in
            let listing = try await Self.readablePost(
                session, postID, viewer: author, at: position, now: now, lock: true)
            try admit()
            guard !listing.post.hidden else { throw GeoError.notFound("The post") }
            guard
                let pseudonym = try await Self.activePseudonym(
                    session, pack: listing.post.packId, user: author, now: now)
            else {
                throw GeoError.joinToWrite(action: "comment")
            }
            var comment = CommentRecord(
                id: nil, postId: postID, authorId: author, pseudonym: pseudonym, body: body, createdAt: now)
            comment.id = try await session.value(
                """
                INSERT INTO comments (post_id, author_id, pseudonym, body, created_at)
                VALUES (\(postID), \(author), \(pseudonym), \(body), \(now.storedMilliseconds))
                RETURNING id
                """, as: Int64.self)
            try await session.execute("UPDATE posts SET comment_count = comment_count + 1 WHERE id = \(postID)")
            return (comment, listing)
        }
    }

    func comments(
        on postID: Int64, viewer: String, at position: ClientPosition?, after cursor: Int64?, limit: Int, now: Date
    ) async throws -> (post: PostListing, comments: [CommentRecord], myVotes: [Int64: Int]) {
        try await write(.repeatableRead) { session in
            let listing = try await Self.readablePost(session, postID, viewer: viewer, at: position, now: now)
            let comments = try await session.rows(
                """
                SELECT \(unescaped: Self.commentColumns) FROM comments c
                WHERE c.post_id = \(postID) AND (NOT c.hidden OR c.author_id = \(viewer))
                    AND c.author_id NOT IN (SELECT writer_id FROM pack_mutes
                        WHERE pack_id = \(listing.post.packId) AND muter_id = \(viewer))
                    AND c.id > \(cursor ?? 0)
                ORDER BY c.id LIMIT \(limit)
                """
            ).map(Self.comment)
            return (listing, comments, try await Self.commentVotes(session, of: viewer, on: comments.compactMap(\.id)))
        }
    }

    func deleteComment(_ id: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws {
        try await write { session in
            guard
                let postID = try await session.value("SELECT post_id FROM comments WHERE id = \(id)", as: Int64.self),
                let listing = try await Self.post(session, postID, viewer: viewer, now: now, lock: true),
                let comment = try await session.first(
                    "SELECT \(unescaped: Self.commentColumns) FROM comments c WHERE c.id = \(id)", Self.comment)
            else { throw GeoError.notFound("The comment") }
            try PackAccess.requireMayDelete(
                author: comment.authorId, alpha: try await Self.actingAlpha(session, of: listing.pack),
                viewer: viewer, isAdmin: isAdmin, thing: "comment")
            try await session.execute("DELETE FROM comments WHERE id = \(id)")
            // A hidden comment was taken off its post's count when it was hidden.
            if !comment.hidden {
                try await session.execute(
                    "UPDATE posts SET comment_count = comment_count - 1 WHERE id = \(comment.postId)")
            }
        }
    }

    func voteComment(_ commentID: Int64, voter: String, value: Int, at position: ClientPosition?, now: Date)
        async throws -> CommentListing
    {
        try await write { session in
            guard
                let postID = try await session.value(
                    "SELECT post_id FROM comments WHERE id = \(commentID)", as: Int64.self),
                let listing = try await Self.post(session, postID, viewer: voter, now: now, lock: true),
                !listing.post.hidden,
                var comment = try await session.first(
                    "SELECT \(unescaped: Self.commentColumns) FROM comments c WHERE c.id = \(commentID)", Self.comment),
                !comment.hidden
            else { throw GeoError.notFound("The comment") }
            try listing.pack.fence.check(position)
            guard comment.authorId != voter else { throw GeoError.ownItem(action: "vote on") }
            guard try await Self.activePseudonym(session, pack: listing.post.packId, user: voter, now: now) != nil
            else {
                throw GeoError.joinToWrite(action: "vote")
            }
            let old = try await Self.commentVotes(session, of: voter, on: [commentID])[commentID] ?? 0
            let answer = { (comment: CommentRecord) in
                CommentListing(comment: comment, postAuthor: listing.post.authorId, myVote: value)
            }
            guard old != value else { return answer(comment) }
            if value == 0 {
                try await session.execute(
                    "DELETE FROM comment_votes WHERE comment_id = \(commentID) AND user_id = \(voter)")
            } else {
                try await session.execute(
                    """
                    INSERT INTO comment_votes (comment_id, user_id, value) VALUES (\(commentID), \(voter), \(value))
                    ON CONFLICT (comment_id, user_id) DO UPDATE SET value = excluded.value
                    """)
            }
            let (up, down) = comment.tally.change(from: old, to: value)
            comment.hidden = comment.tally.hides
            try await session.execute(
                """
                UPDATE comments SET up_votes = \(comment.upVotes), down_votes = \(comment.downVotes),
                    hidden = \(comment.hidden)
                WHERE id = \(commentID)
                """)
            // A hidden comment leaves its post's count, as a reported one does.
            if comment.hidden {
                try await session.execute("UPDATE posts SET comment_count = comment_count - 1 WHERE id = \(postID)")
            }
            try await Self.earnKarma(session, comment.authorId, up: up, down: down, posts: 0)
            return answer(comment)
        }
    }

    // MARK: Shared steps

    /// Adds to a writer's karma counts, in the transaction of the vote or post that earned them.
    static func earnKarma(_ session: PostgresSession, _ writer: String, up: Int, down: Int, posts: Int) async throws {
        try await session.execute(
            """
            INSERT INTO karma (user_id, up_votes, down_votes, posts) VALUES (\(writer), \(up), \(down), \(posts))
            ON CONFLICT (user_id) DO UPDATE SET up_votes = karma.up_votes + excluded.up_votes,
                down_votes = karma.down_votes + excluded.down_votes, posts = karma.posts + excluded.posts
            """)
    }

    /// The user's votes on these comments.
    static func commentVotes(_ session: PostgresSession, of user: String, on commentIDs: [Int64]) async throws
        -> [Int64: Int]
    {
        guard !commentIDs.isEmpty else { return [:] }
        let rows = try await session.rows(
            "SELECT comment_id, value FROM comment_votes WHERE user_id = \(user) AND comment_id = ANY(\(commentIDs))")
        return Dictionary(uniqueKeysWithValues: try rows.map { try $0.decode((Int64, Int).self) })
    }

    /// The user's pseudonym when they are an active member of the live pack.
    static func activePseudonym(_ session: PostgresSession, pack: Int64, user: String, now: Date) async throws
        -> String?
    {
        try await session.value(
            """
            SELECT m.pseudonym FROM pack_members m JOIN packs pk ON pk.id = m.pack_id
            WHERE m.pack_id = \(pack) AND m.user_id = \(user) AND m.active
                AND (pk.expires_at IS NULL OR pk.expires_at > \(now.storedMilliseconds))
            """, as: String.self)
    }

    static func votes(_ session: PostgresSession, of user: String, on postIDs: [Int64]) async throws -> [Int64: Int] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try await session.rows(
            "SELECT post_id, value FROM votes WHERE user_id = \(user) AND post_id = ANY(\(postIDs))")
        return Dictionary(uniqueKeysWithValues: try rows.map { try $0.decode((Int64, Int).self) })
    }

    static func listings(_ session: PostgresSession, _ posts: [PostRecord], packs: [PackRecord], viewer: String)
        async throws -> [PostListing]
    {
        let packsByID = Dictionary(packs.map { ($0.id ?? 0, $0) }) { first, _ in first }
        let votes = try await votes(session, of: viewer, on: posts.compactMap(\.id))
        return posts.compactMap { post in
            packsByID[post.packId].map { PostListing(post: post, pack: $0, myVote: votes[post.id ?? 0] ?? 0) }
        }
    }
}
