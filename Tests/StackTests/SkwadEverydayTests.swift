import Foundation
import GeoService
import PlatformKit
import TestSupport
import Testing

/// Skwad's everyday through the gateway: comments voted on as posts are, and karma in the den.
@Suite struct SkwadEverydayTests {
    @Test func aCommentVotedDownToMinusFiveHidesAndKarmaShowsInTheDen() async throws {
        try await GeoWorld.run { world in
            // given: ann's pack, bob's post, cat's comment, and voters in the pack; gus is not in it
            let eve = try await world.stack.register("eve")
            let fay = try await world.stack.register("fay")
            let gus = try await world.stack.register("gus")
            let pack = try await world.packID(world.ann)
            for user in [world.bob, world.cat, world.dan, eve, fay] { try await world.join(user, pack) }
            let post = try await world.post(world.bob, pack, "Quiet floor tonight?")
            let created = try await world.comment(world.cat, post, "Too loud, go elsewhere")
            #expect(created.status == 201, "\(created.text)")
            let comment = try created.decode(WirePackComment.self).id
            let comments = GeoPaths.posts + "/\(post)/comments"
            func vote(_ user: TestUser, _ value: Int) async throws -> APIResponse {
                try await world.api.send(
                    .PUT, GeoPaths.comments + "/\(comment)/vote", token: user.accessToken, json: ["value": value],
                    headers: GeoWorld.atCampus())
            }

            // then: someone outside the pack, or the comment's own writer, cannot vote
            #expect(try await vote(gus, -1).problem?.code == "not_a_member")
            #expect(try await vote(world.cat, 1).problem?.code == "own_item")

            // when: four vote it down; it stays, with its score and each voter's own vote only
            for user in [world.ann, world.bob, world.dan, eve] {
                let voted = try await vote(user, -1)
                #expect(voted.status == 200, "\(voted.text)")
                for anyone in [world.ann, world.bob, world.cat, world.dan, eve] {
                    #expect(!anyone.isNamed(in: voted.text), "a vote's answer names \(anyone.username)")
                }
            }
            let seen = try await world.read(WirePage<WirePackComment>.self, fay, comments).items
            #expect(seen.map(\.score) == [-4])
            #expect(seen.map(\.myVote) == [0])
            #expect(try await world.read(WirePage<WirePackComment>.self, eve, comments).items.map(\.myVote) == [-1])

            // and the fifth down-vote hides it from everyone but its writer, for good
            let last = try await vote(fay, -1)
            #expect(try last.decode(WirePackComment.self).hidden)
            #expect(try await world.ids(WirePackComment.self, world.ann, comments).isEmpty)
            #expect(try await world.read(WirePackPost.self, world.ann, GeoPaths.posts + "/\(post)").commentCount == 0)
            let own = try await world.read(WirePage<WirePackComment>.self, world.cat, comments).items
            #expect(own.map(\.hidden) == [true])
            #expect(try await vote(world.ann, 1).status == 404)

            // then: karma in each one's den: cat's comment earned -5; bob's post counts 2
            let cats = try await world.read(WireDen.self, world.cat, GeoPaths.den)
            #expect(cats.downVotesEarned == 5)
            #expect(cats.karma == -5)
            #expect(try await world.read(WireDen.self, world.bob, GeoPaths.den).karma == 2)
        }
    }
}
