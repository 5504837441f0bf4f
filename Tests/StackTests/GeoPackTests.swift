import Foundation
import GeoService
import PlatformKit
import TestSupport
import Testing

/// Packs through the gateway: anonymity, pseudonyms, membership and who may do what.
@Suite struct GeoPackTests {
    @Test func noResponseRevealsAnotherUsersIdentity() async throws {
        try await GeoWorld.run { world in
            let stack = world.stack
            // Distinctive names, so a scan cannot match a pseudonym word by accident.
            let alpha = try await stack.register("zq_alpha_x7")
            let writer = try await stack.register("zq_writer_k3")
            let reader = try await stack.register("zq_reader_m9")
            let users = [alpha, writer, reader]
            let pack = try await world.packID(alpha)
            try await world.join(writer, pack)
            try await world.join(reader, pack)
            let first = try await world.post(writer, pack, "Quiet floor tonight?", body: "Anyone up for it")
            let second = try await world.post(writer, pack, "Update", tags: ["study"])
            let mine = try await world.post(reader, pack, "Coffee machine is fixed")
            #expect(try await world.comment(reader, first, "Count me in").status == 201)
            #expect(try await world.comment(writer, first, "Great, 8 pm").status == 201)
            #expect(try await world.vote(reader, first, 1).status == 200)
            #expect(try await world.vote(alpha, first, -1).status == 200)
            #expect(try await world.vote(writer, mine, 1).status == 200)

            for viewer in users {
                let others = users.filter { $0.id != viewer.id }
                var paths = [
                    GeoPaths.packs + "/\(pack)", GeoPaths.packs + "/mine", GeoPaths.packs + "/\(pack)/posts",
                    GeoPaths.packs + "/\(pack)/posts?sort=top", GeoPaths.feed, GeoPaths.feed + "?sort=top",
                    GeoPaths.den, GeoPaths.den + "/posts", GeoPaths.den + "/comments", GeoPaths.discover + "/packs",
                    GeoPaths.discover + "/posts", GeoPaths.discover + "/posts?sort=popularity",
                ]
                for post in [first, second, mine] {
                    paths += [GeoPaths.posts + "/\(post)", GeoPaths.posts + "/\(post)/comments"]
                }
                var bodies: [String] = []
                for path in paths {
                    let response = try await world.api.get(
                        path, token: viewer.accessToken, headers: GeoWorld.atCampus())
                    #expect(response.status == 200, "\(path): \(response.text)")
                    bodies.append(response.text)
                }
                // Write responses too: a new post, a comment, a vote, a join.
                let written = try await world.sendPost(viewer, pack, "Hello again")
                bodies.append(written.text)
                bodies.append(try await world.comment(viewer, second, "ok").text)
                bodies.append(try await world.vote(viewer, mine, -1).text)
                bodies.append(
                    try await world.api.send(
                        .PUT, GeoPaths.packs + "/\(pack)/membership", token: viewer.accessToken,
                        headers: GeoWorld.atCampus()
                    ).text)
                for body in bodies {
                    for other in others {
                        #expect(!other.isNamed(in: body), "\(viewer.username) saw \(other.username)")
                    }
                }
            }
        }
    }

    @Test func aWriterKeepsOnePseudonymPerPackAndOnlyTheyAreToldItIsTheirs() async throws {
        try await GeoWorld.run { world in
            let pack = try await world.packID(world.ann)
            let other = try await world.packID(world.ann, .init(name: "Gym rats", tags: ["gym"]))
            try await world.join(world.bob, pack)
            try await world.join(world.bob, other)
            try await world.join(world.cat, pack)
            let one = try await world.post(world.bob, pack, "One")
            let two = try await world.post(world.bob, pack, "Two")
            let elsewhere = try await world.post(world.bob, other, "Elsewhere")
            let cats = try await world.post(world.cat, pack, "Cat's")

            func author(_ viewer: TestUser, _ post: String) async throws -> WirePackAuthor {
                try await world.read(WirePackPost.self, viewer, GeoPaths.posts + "/\(post)").author
            }
            let name = try await author(world.ann, one).name
            #expect(try await author(world.ann, two).name == name, "stable inside a pack")
            #expect(try await author(world.ann, cats).name != name, "distinct writers, distinct names")
            #expect(try await author(world.ann, elsewhere).name != name, "a new name in another pack")
            #expect(try await author(world.ann, one).isMine == false)
            #expect(try await author(world.bob, one).isMine == true)
            let packView = try await world.read(WirePack.self, world.bob, GeoPaths.packs + "/\(pack)")
            #expect(packView.myPseudonym == name)
            #expect(packView.isAlpha == false)
            #expect(try await world.read(WirePack.self, world.ann, GeoPaths.packs + "/\(pack)").isAlpha == true)

            // Comments: the post's writer is marked as the original poster, to everyone.
            #expect(try await world.comment(world.bob, one, "me again").status == 201)
            #expect(try await world.comment(world.cat, one, "hi").status == 201)
            let comments = try await world.read(
                WirePage<WirePackComment>.self, world.ann, GeoPaths.posts + "/\(one)/comments"
            ).items
            let authors = comments.map(\.author)
            #expect(authors.map(\.isOriginalPoster) == [true, false])
            #expect(authors.first?.name == name)

            // Leaving and coming back keeps the name; nobody else can take it meanwhile.
            #expect(
                try await world.api.delete(GeoPaths.packs + "/\(pack)/membership", token: world.bob.accessToken)
                    .status == 204)
            try await world.join(world.dan, pack)
            try await world.join(world.bob, pack)
            let again = try await world.post(world.bob, pack, "Back")
            #expect(try await author(world.ann, again).name == name)
            let dans = try await world.post(world.dan, pack, "New here")
            #expect(try await author(world.ann, dans).name != name)
        }
    }

    @Test func membershipDecidesWhoWritesAndOwnershipWhoDeletes() async throws {
        try await GeoWorld.run { world in
            let pack = try await world.packID(world.ann)
            let path = GeoPaths.packs + "/\(pack)"
            // A stranger reads an open pack but cannot write in it.
            #expect(try await world.sendPost(world.bob, pack, "Hi").problem?.code == "not_a_member")
            try await world.join(world.bob, pack)
            let post = try await world.post(world.bob, pack, "Hi")
            #expect(try await world.vote(world.cat, post, 1).problem?.code == "not_a_member")
            #expect(try await world.comment(world.cat, post, "x").problem?.code == "not_a_member")
            #expect(try await world.ids(world.cat, path + "/posts") == [post])

            // Only the writer, the alpha or an admin deletes.
            try await world.join(world.cat, pack)
            let comment = try await world.comment(world.cat, post, "mine").decode(WirePackComment.self).id
            #expect(
                try await world.api.delete(GeoPaths.posts + "/\(post)", token: world.cat.accessToken)
                    .problem?.code == "not_yours")
            #expect(
                try await world.api.delete(GeoPaths.comments + "/\(comment)", token: world.bob.accessToken)
                    .problem?.code == "not_yours")
            #expect(
                try await world.api.delete(GeoPaths.comments + "/\(comment)", token: world.cat.accessToken)
                    .status == 204)
            let second = try await world.post(world.bob, pack, "Second")
            #expect(
                try await world.api.delete(GeoPaths.posts + "/\(second)", token: world.bob.accessToken)
                    .status == 204)
            #expect(
                try await world.api.delete(GeoPaths.posts + "/\(post)", token: world.ann.accessToken)
                    .status == 204, "the alpha moderates")
            #expect(try await world.api.get(GeoPaths.posts + "/\(post)", token: world.bob.accessToken).status == 404)
            #expect(try await world.read(WirePack.self, world.ann, path).postCount == 0)

            // Leaving stops writing; only the alpha or an admin closes the pack.
            #expect(try await world.api.delete(path + "/membership", token: world.cat.accessToken).status == 204)
            #expect(try await world.sendPost(world.cat, pack, "Hi").problem?.code == "not_a_member")
            #expect(
                try await world.api.delete(path + "/membership", token: world.cat.accessToken)
                    .problem?.code == "not_a_member")
            #expect(try await world.api.delete(path, token: world.bob.accessToken).problem?.code == "not_alpha")
            let admin = try await world.makeAdmin(world.dan)
            #expect(try await world.api.delete(path, token: admin.accessToken).status == 204)
            #expect(try await world.api.get(path, token: world.ann.accessToken).status == 404)
            #expect(try await world.api.get(path, token: world.ann.accessToken).problem?.status == 404)
            for bad in ["abc", "99999", "-1"] {
                #expect(try await world.api.get(GeoPaths.packs + "/\(bad)", token: world.ann.accessToken).status == 404)
                #expect(try await world.api.get(GeoPaths.posts + "/\(bad)", token: world.ann.accessToken).status == 404)
            }
        }
    }

    /// Pull to refresh: `after` (a post id or the feed cursor of a post) lists only posts made after that one.
    @Test func theFeedListsOnlyPostsNewerThanTheOnesHeld() async throws {
        try await GeoWorld.run { world in
            let pack = try await world.packID(world.ann)
            try await world.join(world.bob, pack)
            let first = try await world.post(world.ann, pack, "one")
            let second = try await world.post(world.bob, pack, "two")
            let held = try await world.read(WirePage<WirePackPost>.self, world.bob, GeoPaths.feed + "?limit=1")
            #expect(held.items.map(\.id) == [second])
            let third = try await world.post(world.ann, pack, "three")
            let fourth = try await world.post(world.bob, pack, "four")
            #expect(try await world.ids(world.bob, GeoPaths.feed + "?after=\(second)") == [fourth, third])
            #expect(try await world.ids(world.bob, GeoPaths.feed + "?after=\(first)") == [fourth, third, second])
            #expect(try await world.ids(world.bob, GeoPaths.feed + "?after=\(fourth)").isEmpty)
            // the cursor of the newest held post works as well as its id
            let cursor = try #require(held.nextCursor)
            #expect(try await world.ids(world.bob, GeoPaths.feed + "?after=\(cursor)") == [fourth, third])
            // and pages like any feed
            let page = try await world.read(
                WirePage<WirePackPost>.self, world.bob, GeoPaths.feed + "?after=\(first)&limit=2")
            #expect(page.items.map(\.id) == [fourth, third])
            let rest = try await world.ids(
                world.bob, GeoPaths.feed + "?after=\(first)&limit=2&cursor=\(try #require(page.nextCursor))")
            #expect(rest == [second])
            for bad in ["abc", "-1", "99999999999999999999", "%00"] {
                let response = try await world.api.get(
                    GeoPaths.feed + "?after=\(bad)", token: world.bob.accessToken, headers: GeoWorld.atCampus())
                #expect(response.problem?.code == "invalid_after", "\(bad): \(response.text)")
            }
        }
    }

    @Test func badPacksAndPostsGetClearProblems() async throws {
        try await GeoWorld.run(configure: { $0.postsPerWindow = 3 }) { world in
            func create(_ pack: GeoWorld.NewPack) async throws -> APIResponse {
                try await world.api.send(.POST, GeoPaths.packs, token: world.ann.accessToken, json: pack)
            }
            var pack = GeoWorld.NewPack()
            pack.radiusMeters = 10
            #expect(try await create(pack).problem?.code == "invalid_radius_meters")
            pack = GeoWorld.NewPack(radiusMeters: 25_001)
            #expect(try await create(pack).status == 400)
            pack = GeoWorld.NewPack(latitude: 91)
            #expect(try await create(pack).status == 400)
            pack = GeoWorld.NewPack(tags: [])
            #expect(try await create(pack).status == 400, "a pack needs a tag")
            pack = GeoWorld.NewPack(tags: ["a b"])
            #expect(try await create(pack).status == 400)
            pack = GeoWorld.NewPack(tags: ["1", "2", "3", "4", "5", "6"])
            #expect(try await create(pack).status == 400)
            pack = GeoWorld.NewPack(color: "orange")
            #expect(try await create(pack).status == 400)
            pack = GeoWorld.NewPack(name: String(repeating: "n", count: 61))
            #expect(try await create(pack).status == 400)
            pack = GeoWorld.NewPack(name: "\u{0007}\u{0001}")
            #expect(try await create(pack).status == 400, "nothing left after stripping")
            #expect(try await world.api.post(GeoPaths.packs, token: world.ann.accessToken, raw: "{").status == 400)
            #expect(
                (try await world.ids(WirePack.self, world.ann, GeoPaths.packs + "/mine")).isEmpty, "nothing was stored")

            let created = try await world.createPack(
                world.ann, .init(name: "  Night\u{0000} owls\u{202E} ", tags: ["#Study", "study", "Late_Night"]))
            #expect(created.name == "Night owls", "control and bidi characters stripped")
            #expect(created.tags == ["study", "late_night"])
            let id = created.id

            let stripped = try await world.sendPost(world.ann, id, "Bell\u{0007}s", body: "line one\nline\u{001B} two")
            let strippedPost = try stripped.decode(WirePackPost.self)
            #expect(strippedPost.title == "Bells")
            #expect(strippedPost.body == "line one\nline two")
            #expect(try await world.sendPost(world.ann, id, String(repeating: "t", count: 121)).status == 400)
            #expect(
                try await world.sendPost(world.ann, id, "t", body: String(repeating: "b", count: 2_001)).status == 400)
            #expect(try await world.sendPost(world.ann, id, " \u{0003} ").status == 400)
            // a post needs a body that says something
            for blank in ["", "   ", " \n\t ", "\u{0007}"] {
                let refused = try await world.sendPost(world.ann, id, "Blank", body: blank)
                #expect(refused.problem?.code == "invalid_body", "\(blank.debugDescription): \(refused.text)")
            }
            let missing = try await world.api.send(
                .POST, GeoPaths.packs + "/\(id)/posts", token: world.ann.accessToken, json: ["title": "No body"],
                headers: GeoWorld.atCampus())
            #expect(missing.problem?.code == "invalid_body")
            #expect(try await world.ids(world.ann, GeoPaths.packs + "/\(id)/posts") == [strippedPost.id])
            let post = strippedPost.id
            #expect(try await world.comment(world.ann, post, String(repeating: "c", count: 1_001)).status == 400)
            #expect(try await world.vote(world.bob, post, 2).status == 400)
            let badPosition = try await world.api.get(
                GeoPaths.packs + "/\(id)", token: world.ann.accessToken, headers: [("Geo-Position", "north")])
            #expect(badPosition.problem?.code == "invalid_position")
            #expect(try await world.api.get(GeoPaths.feed + "?sort=best", token: world.ann.accessToken).status == 400)

            // The rate limit: three posts per window, then 429 with Retry-After until the clock moves on.
            #expect(try await world.sendPost(world.ann, id, "two").status == 201)
            #expect(try await world.sendPost(world.ann, id, "three").status == 201)
            let limited = try await world.sendPost(world.ann, id, "four")
            #expect(limited.status == 429)
            #expect(limited.headers.first(name: "Retry-After") != nil)
            world.stack.clock.advance(by: 201)
            #expect(try await world.sendPost(world.ann, id, "four").status == 201)
            #expect(try await world.read(WirePack.self, world.ann, GeoPaths.packs + "/\(id)").postCount == 4)
        }
    }
}
