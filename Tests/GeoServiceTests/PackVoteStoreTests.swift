import Foundation
import TestSupport
import Testing

@testable import GeoService

/// Votes on comments and the karma they and post votes earn, in the store, on both engines.
@Suite struct PackVoteStoreTests {
    let now = Date()
    static let voters = ["v1", "v2", "v3", "v4", "v5"]

    /// A pack with its writers, voters and a reader, a post by `writer` and a comment on it by `commenter`.
    func thread(_ database: any GeoStore) async throws -> (pack: Int64, post: Int64, comment: Int64) {
        let pack = try await database.createPack(
            PackRecord(
                id: nil, name: "Campus", latitude: 0, longitude: 0, radiusMeters: 1_000, tags: "[]",
                color: "#000000", icon: "x", locked: false, alphaId: "writer", official: false, memberCount: 0,
                postCount: 0, upVotes: 0, downVotes: 0, createdAt: now, expiresAt: now.addingTimeInterval(86_400),
                warned: false),
            now: now
        ).id!
        for member in ["commenter", "reader"] + Self.voters {
            _ = try await database.join(pack, user: member, at: nil, now: now)
        }
        let post = try await database.createPost(
            pack: pack, author: "writer", title: "t", body: "b", tags: [], at: nil, admit: {}, now: now
        ).post.id!
        let comment = try await database.createComment(
            on: post, author: "commenter", body: "c", at: nil, admit: {}, now: now
        ).comment.id!
        return (pack, post, comment)
    }

    func vote(_ database: any GeoStore, _ comment: Int64, by voter: String, _ value: Int) async throws
        -> CommentListing
    {
        try await database.voteComment(comment, voter: voter, value: value, at: nil, now: now)
    }

    @Test(arguments: StoreKind.allCases)
    func aCommentVotedDownToMinusFiveIsHiddenForGoodAsAPostIs(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given
            let (_, post, comment) = try await thread(database)
            // when: one voter changes their mind, then withdraws; the score follows, one vote per voter
            #expect(try await vote(database, comment, by: "v1", 1).comment.tally == VoteTally(up: 1, down: 0))
            let changed = try await vote(database, comment, by: "v1", -1)
            #expect(changed.comment.tally == VoteTally(up: 0, down: 1))
            #expect(changed.myVote == -1)
            #expect(try await vote(database, comment, by: "v1", -1).comment.tally == VoteTally(up: 0, down: 1))
            #expect(try await vote(database, comment, by: "v1", 0).comment.tally == VoteTally(up: 0, down: 0))
            // then: four down-votes leave it shown, the fifth hides it from all but its writer
            for voter in Self.voters.dropLast() { _ = try await vote(database, comment, by: voter, -1) }
            let shown = try await database.comments(
                on: post, viewer: "v1", at: nil, after: nil, limit: 10, now: now)
            #expect(shown.comments.map(\.id) == [comment])
            #expect(shown.myVotes == [comment: -1])
            let last = try await vote(database, comment, by: "v5", -1)
            #expect(last.comment.hidden)
            #expect(last.comment.tally.score == PackLimits.hidingScore)
            let read = try await database.comments(
                on: post, viewer: "reader", at: nil, after: nil, limit: 10, now: now)
            #expect(read.comments.isEmpty)
            #expect(read.post.post.commentCount == 0, "a hidden comment leaves its post's count")
            let own = try await database.comments(
                on: post, viewer: "commenter", at: nil, after: nil, limit: 10, now: now)
            #expect(own.comments.map(\.hidden) == [true])
            // and for good: no vote reaches it again
            await #expect(throws: GeoError.notFound("The comment")) {
                try await vote(database, comment, by: "v1", 1)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func onlyOtherMembersVoteOnAComment(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            let (pack, _, comment) = try await thread(database)
            await #expect(throws: GeoError.ownItem(action: "vote on")) {
                try await vote(database, comment, by: "commenter", 1)
            }
            await #expect(throws: GeoError.joinToWrite(action: "vote")) {
                try await vote(database, comment, by: "stranger", 1)
            }
            try await database.leave(pack, user: "reader", now: now)
            await #expect(throws: GeoError.joinToWrite(action: "vote")) {
                try await vote(database, comment, by: "reader", 1)
            }
            await #expect(throws: GeoError.notFound("The comment")) {
                try await vote(database, 999_999, by: "v1", 1)
            }
        }
    }

    /// The karma counters are kept in each vote's transaction; they must agree with the votes stored.
    @Test(arguments: StoreKind.allCases)
    func karmaCountsAgreeWithTheStoredVotesOnPostsAndComments(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given: the commenter also writes a post
            let (pack, post, comment) = try await thread(database)
            let second = try await database.createPost(
                pack: pack, author: "commenter", title: "t2", body: "b", tags: [], at: nil, admit: {}, now: now
            ).post.id!
            // when: votes on both kinds, changed and withdrawn
            for (index, voter) in Self.voters.enumerated() {
                _ = try await database.vote(post, voter: voter, value: index % 2 == 0 ? 1 : -1, at: nil, now: now)
                _ = try await database.vote(second, voter: voter, value: 1, at: nil, now: now)
                _ = try await vote(database, comment, by: voter, index < 3 ? 1 : -1)
            }
            _ = try await database.vote(second, voter: "v1", value: -1, at: nil, now: now)
            _ = try await database.vote(second, voter: "v2", value: 0, at: nil, now: now)
            _ = try await vote(database, comment, by: "v4", 0)
            _ = try await database.vote(second, voter: "writer", value: 1, at: nil, now: now)
            // then: each writer's counters are the sums of the stored votes on what they wrote
            for writer in ["writer", "commenter"] {
                func stored(_ table: String, on items: String, _ value: Int) async throws -> Int {
                    let item = table == "votes" ? "post_id" : "comment_id"
                    return try await RawSQL.column(
                        database,
                        """
                        SELECT count(*) FROM \(table) JOIN \(items) ON \(items).id = \(table).\(item)
                        WHERE \(items).author_id = '\(writer)' AND \(table).value = \(value)
                        """, as: Int.self
                    ).first ?? -1
                }
                let totals = try await database.denTotals(of: writer, now: now)
                let up = try await stored("votes", on: "posts", 1) + stored("comment_votes", on: "comments", 1)
                let down = try await stored("votes", on: "posts", -1) + stored("comment_votes", on: "comments", -1)
                #expect(totals.upVotes == up, "\(writer)")
                #expect(totals.downVotes == down, "\(writer)")
                #expect(totals.postsWritten == 1)
                #expect(totals.karma == totals.upVotes - totals.downVotes + Karma.perPost)
            }
            // writer: post +3 -2; commenter: post +4 -1 (v1 changed, v2 withdrew, writer added), comment +3 -1
            #expect(try await database.denTotals(of: "writer", now: now).karma == 1 + 2)
            #expect(try await database.denTotals(of: "commenter", now: now).karma == 3 + 2 + 2)
        }
    }
}
