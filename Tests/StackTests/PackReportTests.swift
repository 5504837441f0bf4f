import Foundation
import GeoService
import PlatformKit
import TestSupport
import Testing

/// Reporting and muting pack writers through the gateway (issue 47): three reports hide a post from everyone but
/// its writer, an admin sees the writer's account and removes it, the writer is told; a mute hides a writer for
/// one person in one pack, through leaving and rejoining. No answer to a reporter, a muter or a non-admin names
/// the writer.
@Suite struct PackReportTests {
    /// Every way the answers could name `writer`.
    static func expectNotNaming(_ writer: TestUser, in bodies: [String], _ comment: Comment? = nil) {
        for body in bodies {
            #expect(!writer.isNamed(in: body), "\(comment?.description ?? "") \(body)")
        }
    }

    func report(_ world: GeoWorld, _ user: TestUser, _ path: String, reason: String = "harassment") async throws
        -> APIResponse
    {
        try await world.api.send(
            .POST, path + "/reports", token: user.accessToken, json: ["reason": reason, "note": "not ok"],
            headers: GeoWorld.atCampus())
    }

    @Test func threeReportsHideAPostUntilAnAdminRemovesItAndTheWriterIsTold() async throws {
        let notices = RecordedNotices()
        try await GeoWorld.run(configure: { $0.noticeSink = notices }) { world in
            // given: bob writes in ann's pack; cat, dan and eve report it; fay only reads
            let eve = try await world.stack.register("zq_eve_r4")
            let fay = try await world.stack.register("zq_fay_r5")
            let pack = try await world.packID(world.ann)
            for user in [world.bob, world.cat, world.dan, eve, fay] { try await world.join(user, pack) }
            let post = try await world.post(world.bob, pack, "Rude one")
            let kept = try await world.post(world.bob, pack, "Fine one")
            var bodies: [String] = []

            // when: two reports leave it shown, the third hides it
            for reporter in [world.cat, world.dan] {
                let filed = try await report(world, reporter, GeoPaths.posts + "/\(post)")
                #expect(filed.status == 201, "\(filed.text)")
                bodies.append(filed.text)
            }
            let again = try await report(world, world.cat, GeoPaths.posts + "/\(post)", reason: "spam")
            #expect(again.status == 200)
            bodies.append(again.text)
            #expect(try await world.ids(fay, GeoPaths.packs + "/\(pack)/posts").contains(post))
            let third = try await report(world, eve, GeoPaths.posts + "/\(post)")
            #expect(third.status == 201)
            bodies.append(third.text)

            // then: gone for fay everywhere, shown hidden to bob
            #expect(try await world.ids(fay, GeoPaths.packs + "/\(pack)/posts") == [kept])
            #expect(!(try await world.ids(fay, GeoPaths.feed).contains(post)))
            #expect(!(try await world.ids(fay, GeoPaths.discover + "/posts").contains(post)))
            let hidden = try await world.api.get(
                GeoPaths.posts + "/\(post)", token: fay.accessToken, headers: GeoWorld.atCampus())
            #expect(hidden.status == 404)
            let own = try await world.read(WirePackPost.self, world.bob, GeoPaths.posts + "/\(post)")
            #expect(own.hidden)
            for viewer in [world.cat, world.dan, eve, fay] {
                for path in [GeoPaths.packs + "/\(pack)/posts", GeoPaths.feed, GeoPaths.posts + "/\(kept)"] {
                    bodies.append(
                        try await world.api.get(path, token: viewer.accessToken, headers: GeoWorld.atCampus()).text)
                }
            }

            // a non-admin is refused the queue and its decisions
            let refused = try await world.api.get(GeoPaths.prefix + "/reports", token: world.cat.accessToken)
            #expect(refused.status == 403)
            #expect(refused.text.contains("admin_only"))
            let refusedRemove = try await world.api.send(
                .POST, GeoPaths.prefix + "/reports/posts/\(post)/remove", token: fay.accessToken)
            #expect(refusedRemove.status == 403)
            bodies += [refused.text, refusedRemove.text]
            Self.expectNotNaming(world.bob, in: bodies)

            // an admin sees the writer's account, removes the post, and bob is told
            let admin = try await world.makeAdmin(world.ann)
            let queue = try await world.api.get(GeoPaths.prefix + "/reports?sort=most", token: admin.accessToken)
            #expect(queue.status == 200, "\(queue.text)")
            let items = try queue.decode(WirePage<QueuedItem>.self).items
            #expect(items.map(\.id) == [post])
            #expect(items.first?.writerId == world.bob.id)
            #expect(items.first?.reportCount == 3)
            #expect(items.first?.reasons == ["harassment": 3])
            let removed = try await world.api.send(
                .POST, GeoPaths.prefix + "/reports/posts/\(post)/remove", token: admin.accessToken)
            #expect(removed.status == 200, "\(removed.text)")
            let told = notices.all.filter { $0.kind == "geo.post_removed" }
            #expect(told.map(\.recipients) == [[world.bob.id]])
            #expect(told.first?.text.contains("Rude one") == true)
            let gone = try await world.api.get(
                GeoPaths.posts + "/\(post)", token: world.bob.accessToken, headers: GeoWorld.atCampus())
            #expect(gone.status == 404)
            let empty = try await world.api.get(GeoPaths.prefix + "/reports", token: admin.accessToken)
            #expect(try empty.decode(WirePage<QueuedItem>.self).items.isEmpty)
        }
    }

    @Test func anAdminKeepsAReportedCommentAndItShowsAgain() async throws {
        try await GeoWorld.run { world in
            // given: cat's comment reported by three
            let eve = try await world.stack.register("zq_eve_c6")
            let pack = try await world.packID(world.ann)
            for user in [world.bob, world.cat, world.dan, eve] { try await world.join(user, pack) }
            let post = try await world.post(world.ann, pack, "Question")
            let comment = try await world.comment(world.cat, post, "An answer").decode(WirePackComment.self).id
            for reporter in [world.bob, world.dan, eve] {
                #expect(try await report(world, reporter, GeoPaths.comments + "/\(comment)").status == 201)
            }
            let path = GeoPaths.posts + "/\(post)/comments"
            #expect(try await world.ids(WirePackComment.self, world.bob, path).isEmpty)
            #expect(try await world.read(WirePackPost.self, world.bob, GeoPaths.posts + "/\(post)").commentCount == 0)
            #expect(try await world.ids(WirePackComment.self, world.cat, path) == [comment])
            // when
            let admin = try await world.makeAdmin(world.ann)
            let queue = try await world.api.get(GeoPaths.prefix + "/reports", token: admin.accessToken)
            #expect(try queue.decode(WirePage<QueuedItem>.self).items.map(\.writerId) == [world.cat.id])
            let kept = try await world.api.send(
                .POST, GeoPaths.prefix + "/reports/comments/\(comment)/keep", token: admin.accessToken)
            #expect(kept.status == 200, "\(kept.text)")
            // then
            #expect(try await world.ids(WirePackComment.self, world.bob, path) == [comment])
            #expect(try await world.read(WirePackPost.self, world.bob, GeoPaths.posts + "/\(post)").commentCount == 1)
            // a new round starts: bob may report it again
            #expect(try await report(world, world.bob, GeoPaths.comments + "/\(comment)").status == 201)
        }
    }

    @Test func aMuteHidesAWritersPostsAndCommentsInThatPackThroughLeavingAndRejoining() async throws {
        try await GeoWorld.run { world in
            // given: bob writes in two packs cat is in
            let pack = try await world.packID(world.ann)
            let other = try await world.packID(world.ann, .init(name: "Gym rats", tags: ["gym"]))
            for user in [world.bob, world.cat] {
                try await world.join(user, pack)
                try await world.join(user, other)
            }
            let first = try await world.post(world.bob, pack, "First")
            let elsewhere = try await world.post(world.bob, other, "Elsewhere")
            let question = try await world.post(world.ann, pack, "Question")
            #expect(try await world.comment(world.bob, question, "Bob's answer").status == 201)
            var bodies: [String] = []

            // when: cat mutes the writer of the first post
            let muted = try await world.api.send(
                .PUT, GeoPaths.posts + "/\(first)/mute-writer", token: world.cat.accessToken,
                headers: GeoWorld.atCampus())
            #expect(muted.status == 200, "\(muted.text)")
            bodies.append(muted.text)

            // then: bob's writing in that pack is gone for cat, not elsewhere, not for ann
            let posts = GeoPaths.packs + "/\(pack)/posts"
            #expect(try await world.ids(world.cat, posts) == [question])
            #expect(try await world.ids(world.cat, GeoPaths.feed) == [question, elsewhere])
            #expect(
                try await world.ids(WirePackComment.self, world.cat, GeoPaths.posts + "/\(question)/comments").isEmpty)
            #expect(try await world.ids(world.ann, posts) == [question, first])

            // bob leaves, rejoins and posts again: still muted for cat
            let left = try await world.api.send(
                .DELETE, GeoPaths.packs + "/\(pack)/membership", token: world.bob.accessToken)
            #expect(left.status == 204)
            try await world.join(world.bob, pack)
            let later = try await world.post(world.bob, pack, "Later")
            #expect(try await world.ids(world.cat, posts) == [question])
            #expect(try await world.ids(world.ann, posts) == [later, question, first])
            for path in [
                posts, GeoPaths.feed, GeoPaths.discover + "/posts", GeoPaths.posts + "/\(question)/comments",
                GeoPaths.packs + "/\(pack)",
            ] {
                bodies.append(
                    try await world.api.get(path, token: world.cat.accessToken, headers: GeoWorld.atCampus()).text)
            }
            Self.expectNotNaming(world.bob, in: bodies)
        }
    }
}

/// An item of the admins' report queue, as much as these tests read.
struct QueuedItem: Decodable, Sendable, Identifiable {
    var id: String
    var kind: String
    var writerId: String
    var reportCount: Int
    var reasons: [String: Int]
}
