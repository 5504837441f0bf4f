import Foundation
import PlatformKit
import TestSupport
import Testing

/// Issue 18: each conversation belongs to the app it was started in (WeGroup or Getaway), with each app's own
/// rules for who may be messaged, its own lists and unread counts, and one direct chat per pair and app.
@Suite struct MessagingProductTests {
    func open(_ world: MessagingWorld, _ a: TestUser, _ b: TestUser, _ product: String) async throws -> APIResponse {
        try await world.api.post(
            MessagingPaths.direct, token: a.accessToken, json: ["userId": b.id, "product": product])
    }

    func list(_ world: MessagingWorld, _ user: TestUser, _ query: String = "") async throws -> [WireConversation] {
        try world.conversations(await world.api.get(MessagingPaths.conversations + query, token: user.accessToken))
    }

    @Test func aPairHasOneDirectChatPerProductAndEachAppListsItsOwn() async throws {
        try await MessagingWorld.run { world in
            let wegroup = try await world.direct(world.ann, world.bob, product: "wegroup")
            let getaway = try await world.direct(world.ann, world.bob, product: "getaway")
            #expect(wegroup != getaway)
            #expect(try await open(world, world.bob, world.ann, "getaway").decode(WireConversation.self).id == getaway)
            try await world.message(world.bob, wegroup, "wegroup hello")
            try await world.message(world.bob, getaway, "getaway hello")
            try await world.message(world.bob, getaway, "getaway again")
            #expect(try await list(world, world.ann, "?product=getaway").map(\.id) == [getaway])
            #expect(try await list(world, world.ann, "?product=wegroup").map(\.id) == [wegroup])
            #expect(try await list(world, world.ann, "?product=wegroup").first?.product == "wegroup")
            #expect(Set(try await list(world, world.ann).map(\.id)) == [wegroup, getaway], "no filter: every app's")
            // unread counts per app
            let unread = try await world.api.get(
                MessagingPaths.unread + "?product=getaway", token: world.ann.accessToken
            )
            .decode(WireUnread.self)
            #expect(unread.total == 2)
            #expect(unread.conversations.map(\.conversationId) == [getaway])
            let bad = try await world.api.get(
                MessagingPaths.conversations + "?product=moon", token: world.ann.accessToken)
            #expect(bad.problem?.code == "invalid_product")
            // another user never sees either
            #expect(try await world.api.get(world.path(getaway), token: world.cat.accessToken).status == 404)
        }
    }

    @Test func weGroupNeedsAFriendshipForNewChatsButKeepsOldOnes() async throws {
        try await MessagingWorld.run { world in
            // eve is nobody's friend: not in WeGroup, yes in Getaway
            let refused = try await open(world, world.ann, world.eve, "wegroup")
            #expect(refused.status == 403)
            #expect(refused.problem?.code == "not_friends")
            #expect(try await open(world, world.ann, world.eve, "getaway").status == 201)
            let group = try await world.api.post(
                MessagingPaths.groups, token: world.ann.accessToken,
                json: MessagingWorld.GroupBody(
                    name: "Trip", memberIds: [world.bob.id, world.eve.id], product: "getaway"))
            #expect(group.status == 201)
            #expect(try group.decode(WireConversation.self).product == "getaway")
            // after unfriending, the WeGroup chat stays and can be used; a new group with them cannot be made
            let chat = try await world.direct(world.ann, world.dan)
            try await world.message(world.ann, chat, "before")
            let unfriend = try await world.api.delete(
                "\(SocialPaths.friends)/\(world.dan.id)", token: world.ann.accessToken)
            #expect(unfriend.status == 204)
            #expect(try await open(world, world.ann, world.dan, "wegroup").decode(WireConversation.self).id == chat)
            #expect(try await world.send(world.dan, chat, "after").status == 201)
            #expect(try await open(world, world.ann, world.dan, "getaway").status == 201)
            let newGroup = try await world.api.post(
                MessagingPaths.groups, token: world.ann.accessToken,
                json: MessagingWorld.GroupBody(name: "Again", memberIds: [world.bob.id, world.dan.id]))
            #expect(newGroup.problem?.code == "not_friends")
        }
    }
}
