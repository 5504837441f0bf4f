import Foundation
import GRDB
import ServiceKit

/// Anonymous posts, comments and votes. Each write reads the pack and post it needs and checks, in its
/// transaction, that the writer may: a live pack, inside a locked pack's radius, a member.
extension SQLiteGeoStore {
    /// A post with its pack and the viewer's vote, when the post exists, is not hidden (except to its writer)
    /// and its pack is live.
    static func post(_ db: Database, _ id: Int64, viewer: String, now: Date) throws -> PostListing? {
        guard let post = try PostRecord.fetchOne(db, key: id), !post.hidden || post.authorId == viewer,
            let pack = try PackRecord.fetchOne(db, key: post.packId), pack.isLive(at: now)
        else { return nil }
        return PostListing(post: post, pack: pack, myVote: try votes(db, of: viewer, on: [id])[id] ?? 0)
    }

    /// The post as the viewer may read it from `position`: visible to them, in a live pack whose content they
    /// may see from there.
    static func readablePost(_ db: Database, _ id: Int64, viewer: String, at position: ClientPosition?, now: Date)
        throws -> PostListing
    {
        guard let listing = try post(db, id, viewer: viewer, now: now) else { throw GeoError.notFound("The post") }
        try listing.pack.fence.check(position)
        return listing
    }

    func readablePost(_ id: Int64, viewer: String, at position: ClientPosition?, now: Date) async throws
        -> PostListing
    {
        try await read { db in try Self.readablePost(db, id, viewer: viewer, at: position, now: now) }
    }

    /// Adds a post under the writer's pseudonym in a live pack whose content they may see from `position` and
    /// that they are an active member of; `admit` (the rate limit) runs once the pack is known to be open to them.
    func createPost(
        pack packID: Int64, author: String, title: String, body: String, tags: [String], at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date
    ) async throws -> PostListing {
        try await write { db in
            let pack = try Self.livePack(db, packID, now: now)
            try pack.fence.check(position)
            try admit()
            guard let pseudonym = try Self.activePseudonym(db, pack: packID, user: author, now: now) else {
                throw GeoError.joinToWrite(action: "post")
            }
            var post = PostRecord(
                id: nil, packId: packID, author: author, pseudonym: pseudonym, title: title, body: body,
                tags: StoredJSON.array(tags), now: now)
            try post.insert(db)
            try db.execute(sql: "UPDATE packs SET post_count = post_count + 1 WHERE id = ?", arguments: [packID])
            try Self.earnKarma(db, author, up: 0, down: 0, posts: 1)
            try Self.refreshExpiry(db, packID: packID, now: now)
            return PostListing(post: post, pack: pack, myVote: 0)
        }
    }

    /// Deletes a post with its comments and votes, for its writer, the pack's alpha or an admin; its pack's
    /// counters drop, the writer's earned votes stay.
    func deletePost(_ id: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws {
        try await write { db in
            guard let listing = try Self.post(db, id, viewer: viewer, now: now) else {
                throw GeoError.notFound("The post")
            }
            try PackAccess.requireMayDelete(
                author: listing.post.authorId, alpha: try Self.actingAlpha(db, of: listing.pack), viewer: viewer,
                isAdmin: isAdmin,
                thing: "post")
            let post = listing.post
            try db.execute(sql: "DELETE FROM posts WHERE id = ?", arguments: [id])
            try db.execute(
                sql: """
                    UPDATE packs SET post_count = post_count - 1, up_votes = up_votes - ?, down_votes = down_votes - ?
                    WHERE id = ?
                    """, arguments: [post.upVotes, post.downVotes, post.packId])
        }
    }

    /// Sets (1, -1) or withdraws (0) the voter's vote, from where the post may be read. A post whose score falls
    /// to ``PackLimits/hidingScore`` is hidden for good. Writers cannot vote on their own posts.
    func vote(_ postID: Int64, voter: String, value: Int, at position: ClientPosition?, now: Date) async throws
        -> PostListing
    {
        try await write { db in
            let listing = try Self.readablePost(db, postID, viewer: voter, at: position, now: now)
            var post = listing.post
            let pack = listing.pack
            guard !post.hidden else { throw GeoError.notFound("The post") }
            guard post.authorId != voter else { throw GeoError.ownPost }
            guard try Self.activePseudonym(db, pack: post.packId, user: voter, now: now) != nil else {
                throw GeoError.joinToWrite(action: "vote")
            }
            let old = listing.myVote
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
            let (up, down) = post.tally.change(from: old, to: value)
            post.hot = PostRanking.hot(up: post.upVotes, down: post.downVotes, createdAt: post.createdAt)
            post.hidden = post.tally.hides
            try post.update(db)
            try db.execute(
                sql: "UPDATE packs SET up_votes = up_votes + ?, down_votes = down_votes + ? WHERE id = ?",
                arguments: [up, down, post.packId])
            try Self.earnKarma(db, post.authorId, up: up, down: down, posts: 0)
            try Self.refreshExpiry(db, packID: post.packId, now: now)
            return PostListing(post: post, pack: pack, myVote: value)
        }
    }

    // MARK: Comments

    /// Adds a comment under the writer's pseudonym to a post they may read from `position`, in a pack they are an
    /// active member of; `admit` (the rate limit) runs once the post is known to be open to them.
    func createComment(
        on postID: Int64, author: String, body: String, at position: ClientPosition?,
        admit: @escaping @Sendable () throws -> Void, now: Date, notices: ChangeNotices<CommentMade>?
    ) async throws -> CommentMade {
        try await write(reporting: notices) { db in
            let listing = try Self.readablePost(db, postID, viewer: author, at: position, now: now)
            try admit()
            guard !listing.post.hidden else { throw GeoError.notFound("The post") }
            guard let pseudonym = try Self.activePseudonym(db, pack: listing.post.packId, user: author, now: now)
            else {
                throw GeoError.joinToWrite(action: "comment")
            }
            var comment = CommentRecord(
                id: nil, postId: postID, authorId: author, pseudonym: pseudonym, body: body, createdAt: now)
            try comment.insert(db)
            try db.execute(
                sql: "UPDATE posts SET comment_count = comment_count + 1 WHERE id = ?", arguments: [postID])
            return (comment, listing)
        }
    }

    /// The comments of a post the viewer may read from `position`, oldest first, after the cursor's id; hidden
    /// ones only to their writer, none of writers the viewer muted in the pack.
    func comments(
        on postID: Int64, viewer: String, at position: ClientPosition?, after cursor: Int64?, limit: Int, now: Date
    ) async throws -> (post: PostListing, comments: [CommentRecord], myVotes: [Int64: Int]) {
        try await read { db in
            let listing = try Self.readablePost(db, postID, viewer: viewer, at: position, now: now)
            let comments = try CommentRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM comments WHERE post_id = ? AND (hidden = 0 OR author_id = ?)
                            AND author_id NOT IN (SELECT writer_id FROM pack_mutes WHERE pack_id = ? AND muter_id = ?)
                            AND id > ? ORDER BY id LIMIT ?
                        """),
                arguments: [postID, viewer, listing.post.packId, viewer, cursor ?? 0, limit])
            return (listing, comments, try Self.commentVotes(db, of: viewer, on: comments.compactMap(\.id)))
        }
    }

    /// Deletes a comment, for its writer, the post's pack's alpha or an admin.
    func deleteComment(_ id: Int64, by viewer: String, isAdmin: Bool, now: Date) async throws {
        try await write { db in
            guard let comment = try CommentRecord.fetchOne(db, key: id),
                let listing = try Self.post(db, comment.postId, viewer: viewer, now: now)
            else { throw GeoError.notFound("The comment") }
            try PackAccess.requireMayDelete(
                author: comment.authorId, alpha: try Self.actingAlpha(db, of: listing.pack), viewer: viewer,
                isAdmin: isAdmin,
                thing: "comment")
            try db.execute(sql: "DELETE FROM comments WHERE id = ?", arguments: [id])
            // A hidden comment was taken off its post's count when it was hidden.
            if !comment.hidden {
                try db.execute(
                    sql: "UPDATE posts SET comment_count = comment_count - 1 WHERE id = ?", arguments: [comment.postId])
            }
        }
    }

    /// Sets (1, -1) or withdraws (0) the voter's vote on a comment, by the rule posts follow (``VoteTally``).
    func voteComment(_ commentID: Int64, voter: String, value: Int, at position: ClientPosition?, now: Date)
        async throws -> CommentListing
    {
        try await write { db in
            guard var comment = try CommentRecord.fetchOne(db, key: commentID), !comment.hidden,
                let listing = try Self.post(db, comment.postId, viewer: voter, now: now), !listing.post.hidden
            else { throw GeoError.notFound("The comment") }
            try listing.pack.fence.check(position)
            guard comment.authorId != voter else { throw GeoError.ownItem(action: "vote on") }
            guard try Self.activePseudonym(db, pack: listing.post.packId, user: voter, now: now) != nil else {
                throw GeoError.joinToWrite(action: "vote")
            }
            let old = try Self.commentVotes(db, of: voter, on: [commentID])[commentID] ?? 0
            let answer = { (comment: CommentRecord) in
                CommentListing(comment: comment, postAuthor: listing.post.authorId, myVote: value)
            }
            guard old != value else { return answer(comment) }
            if value == 0 {
                try db.execute(
                    sql: "DELETE FROM comment_votes WHERE comment_id = ? AND user_id = ?",
                    arguments: [commentID, voter])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO comment_votes (comment_id, user_id, value) VALUES (?, ?, ?)
                        ON CONFLICT (comment_id, user_id) DO UPDATE SET value = excluded.value
                        """, arguments: [commentID, voter, value])
            }
            let (up, down) = comment.tally.change(from: old, to: value)
            comment.hidden = comment.tally.hides
            try comment.update(db)
            // A hidden comment leaves its post's count, as a reported one does.
            if comment.hidden {
                try db.execute(
                    sql: "UPDATE posts SET comment_count = comment_count - 1 WHERE id = ?", arguments: [comment.postId])
            }
            try Self.earnKarma(db, comment.authorId, up: up, down: down, posts: 0)
            return answer(comment)
        }
    }

    // MARK: Shared steps

    /// Adds to a writer's karma counts, in the transaction of the vote or post that earned them.
    static func earnKarma(_ db: Database, _ writer: String, up: Int, down: Int, posts: Int) throws {
        try db.execute(
            sql: """
                INSERT INTO karma (user_id, up_votes, down_votes, posts) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET up_votes = up_votes + excluded.up_votes,
                    down_votes = down_votes + excluded.down_votes, posts = posts + excluded.posts
                """, arguments: [writer, up, down, posts])
    }

    /// The user's votes on these comments.
    static func commentVotes(_ db: Database, of user: String, on commentIDs: [Int64]) throws -> [Int64: Int] {
        guard !commentIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT comment_id, value FROM comment_votes
                    WHERE user_id = ? AND comment_id IN (SELECT value FROM json_each(?))
                    """), arguments: [user, StoredJSON.array(commentIDs)])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
    }

    /// The user's pseudonym when they are an active member of the live pack.
    static func activePseudonym(_ db: Database, pack: Int64, user: String, now: Date) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT pack_members.pseudonym FROM pack_members JOIN packs ON packs.id = pack_members.pack_id
                    WHERE pack_members.pack_id = ? AND pack_members.user_id = ? AND pack_members.active = 1
                        AND (packs.expires_at IS NULL OR packs.expires_at > ?)
                    """), arguments: [pack, user, now])
    }

    static func votes(_ db: Database, of user: String, on postIDs: [Int64]) throws -> [Int64: Int] {
        guard !postIDs.isEmpty else { return [:] }
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT post_id, value FROM votes WHERE user_id = ? AND post_id IN (SELECT value FROM json_each(?))
                    """), arguments: [user, StoredJSON.array(postIDs)])
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as Int64, $0[1] as Int) })
    }

    static func listings(_ db: Database, _ posts: [PostRecord], packs: [PackRecord], viewer: String) throws
        -> [PostListing]
    {
        let packsByID = Dictionary(packs.map { ($0.id ?? 0, $0) }) { first, _ in first }
        let votes = try votes(db, of: viewer, on: posts.compactMap(\.id))
        return posts.compactMap { post in
            packsByID[post.packId].map { PostListing(post: post, pack: $0, myVote: votes[post.id ?? 0] ?? 0) }
        }
    }
}
