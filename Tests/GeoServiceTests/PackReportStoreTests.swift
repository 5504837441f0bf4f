import Foundation
import TestSupport
import Testing

@testable import GeoService

/// Reports, the admin queue and mutes in the store, on both engines.
@Suite struct PackReportStoreTests {
    let now = Date()

    /// A pack of `alpha` with `members` joined, on a fresh store.
    func pack(_ database: any GeoStore, alpha: String = "writer", members: [String]) async throws -> Int64 {
        let pack = try await database.createPack(
            PackRecord(
                id: nil, name: "Campus", latitude: 0, longitude: 0, radiusMeters: 1_000, tags: "[]",
                color: "#000000", icon: "x", locked: false, alphaId: alpha, official: false, memberCount: 0,
                postCount: 0, upVotes: 0, downVotes: 0, createdAt: now, expiresAt: now.addingTimeInterval(86_400),
                warned: false),
            now: now
        ).id!
        for member in members { _ = try await database.join(pack, user: member, at: nil, now: now) }
        return pack
    }

    func post(_ database: any GeoStore, _ pack: Int64, by writer: String, _ title: String = "t") async throws -> Int64 {
        try await database.createPost(
            pack: pack, author: writer, title: title, body: "b", tags: [], at: nil, admit: {}, now: now
        ).post.id!
    }

    func report(
        _ database: any GeoStore, _ kind: PackReports.Kind, _ id: Int64, by reporter: String, threshold: Int = 3
    ) async throws -> (report: ReportRecord, created: Bool) {
        try await database.report(
            kind, id, reporter: reporter, reason: .spam, note: "n \(reporter)", threshold: threshold, at: nil,
            now: now)
    }

    @Test(arguments: StoreKind.allCases)
    func thresholdReportsHideAPostUntilKeptAndARoundStartsAgain(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given
            let pack = try await self.pack(database, members: ["r1", "r2", "r3", "reader"])
            let post = try await self.post(database, pack, by: "writer")
            // when: two report, one twice
            #expect(try await self.report(database, .post, post, by: "r1").created)
            let again = try await self.report(database, .post, post, by: "r1")
            #expect(!again.created)
            #expect(try await self.report(database, .post, post, by: "r2").created)
            // then: still shown; the third hides it from all but its writer
            _ = try await database.readablePost(post, viewer: "reader", at: nil, now: now)
            _ = try await self.report(database, .post, post, by: "r3")
            await #expect(throws: GeoError.notFound("The post")) {
                try await database.readablePost(post, viewer: "reader", at: nil, now: now)
            }
            #expect(try await database.readablePost(post, viewer: "writer", at: nil, now: now).post.hidden)
            let listed = try await database.posts(
                in: [try await database.livePack(pack, now: now)], order: .new, after: nil, limit: 10,
                viewer: "reader")
            #expect(listed.isEmpty)
            // the queue shows it with its writer and three reports
            let queue = try await database.reportQueue(order: .oldest, after: nil, limit: 10)
            #expect(queue.map(\.item.writerId) == ["writer"])
            #expect(queue.first?.item.reports.map(\.reporterId) == ["r1", "r2", "r3"])
            #expect(queue.first?.entry.count == 3)
            // keep: shown again, reports closed with who and when, a new round may start
            let kept = try await database.decideReports(on: .post, post, .keep, by: "admin", now: now)
            #expect(kept.reports.allSatisfy { $0.decision == "keep" && $0.decidedBy == "admin" })
            #expect(!(try await database.readablePost(post, viewer: "reader", at: nil, now: now).post.hidden))
            #expect(try await database.reportQueue(order: .oldest, after: nil, limit: 10).isEmpty)
            #expect(try await self.report(database, .post, post, by: "r1").created)
            await #expect(throws: GeoError.notFound("An open report of this comment")) {
                try await database.decideReports(on: .comment, post, .keep, by: "admin", now: now)
            }
            await #expect(throws: GeoError.ownItem(action: "report")) {
                try await self.report(database, .post, post, by: "writer")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aHiddenCommentLeavesItsPostsCountAndRemovalDeletesIt(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given
            let pack = try await self.pack(database, members: ["r1", "r2", "reader"])
            let post = try await self.post(database, pack, by: "writer")
            let comment = try await database.createComment(
                on: post, author: "reader", body: "rude", at: nil, admit: {}, now: now
            ).comment.id!
            // when
            _ = try await self.report(database, .comment, comment, by: "r1", threshold: 2)
            _ = try await self.report(database, .comment, comment, by: "r2", threshold: 2)
            // then
            let (listing, seen, _) = try await database.comments(
                on: post, viewer: "r1", at: nil, after: nil, limit: 10, now: now)
            #expect(seen.isEmpty)
            #expect(listing.post.commentCount == 0)
            let (_, own, _) = try await database.comments(
                on: post, viewer: "reader", at: nil, after: nil, limit: 10, now: now)
            #expect(own.map(\.hidden) == [true])
            let removed = try await database.decideReports(on: .comment, comment, .remove, by: "admin", now: now)
            #expect(removed.writerId == "reader")
            #expect(try await RawSQL.count(database, "comments") == 0)
            #expect(
                try await database.readablePost(post, viewer: "writer", at: nil, now: now).post.commentCount == 0)
            #expect(
                try await RawSQL.column(database, "SELECT decision FROM reports", as: String.self)
                    == ["remove", "remove"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theQueueComesOldestOrMostReportedFirstAPageAtATime(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given: a post with one report, then one with three
            let pack = try await self.pack(database, members: ["r1", "r2", "r3"])
            let first = try await self.post(database, pack, by: "writer")
            let second = try await self.post(database, pack, by: "writer")
            _ = try await self.report(database, .post, first, by: "r1", threshold: 50)
            for reporter in ["r1", "r2", "r3"] {
                _ = try await self.report(database, .post, second, by: reporter, threshold: 50)
            }
            // when / then
            let oldest = try await database.reportQueue(order: .oldest, after: nil, limit: 1)
            #expect(oldest.map(\.entry.itemId) == [first])
            let next = try await database.reportQueue(
                order: .oldest, after: ReportQueueCursor(first: oldest[0].entry.first), limit: 5)
            #expect(next.map(\.entry.itemId) == [second])
            let most = try await database.reportQueue(order: .most, after: nil, limit: 1)
            #expect(most.map(\.entry.itemId) == [second])
            let after = try await database.reportQueue(
                order: .most, after: ReportQueueCursor(first: most[0].entry.first, count: most[0].entry.count),
                limit: 5)
            #expect(after.map(\.entry.itemId) == [first])
            // a deleted item leaves the queue
            try await database.deletePost(first, by: "writer", isAdmin: false, now: now)
            #expect(
                try await database.reportQueue(order: .oldest, after: nil, limit: 5).map(\.entry.itemId) == [second])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aMutedWritersPostsAndCommentsLeaveTheMutersListsInThatPackOnly(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            // given
            let pack = try await self.pack(database, alpha: "alpha", members: ["writer", "muter", "other"])
            let elsewhere = try await self.pack(database, alpha: "alpha2", members: ["writer", "muter"])
            let post = try await self.post(database, pack, by: "writer")
            let away = try await self.post(database, elsewhere, by: "writer")
            let onIt = try await database.createComment(
                on: try await self.post(database, pack, by: "other"), author: "writer", body: "hi", at: nil,
                admit: {}, now: now)
            // when
            let muted = try await database.muteWriter(of: .post, post, muter: "muter", at: nil, now: now)
            // then
            #expect(muted.packID == pack)
            #expect(muted.pseudonym == onIt.comment.pseudonym)
            func visible(_ viewer: String) async throws -> [Int64] {
                try await database.posts(
                    in: [
                        try await database.livePack(pack, now: now), try await database.livePack(elsewhere, now: now),
                    ],
                    order: .new, after: nil, limit: 10, viewer: viewer
                ).compactMap(\.post.id)
            }
            #expect(try await visible("muter") == [onIt.on.post.id!, away])
            #expect(try await visible("other").count == 3)
            let comments = try await database.comments(
                on: onIt.on.post.id!, viewer: "muter", at: nil, after: nil, limit: 10, now: now)
            #expect(comments.comments.isEmpty)
            // the writer leaves, rejoins and posts again: still muted
            try await database.leave(pack, user: "writer", now: now)
            _ = try await database.join(pack, user: "writer", at: nil, now: now)
            let later = try await self.post(database, pack, by: "writer", "later")
            #expect(try await visible("muter") == [onIt.on.post.id!, away])
            #expect(try await visible("other").contains(later))
            await #expect(throws: GeoError.ownItem(action: "mute")) {
                try await database.muteWriter(of: .post, post, muter: "writer", at: nil, now: now)
            }
        }
    }
}
