import Foundation
import PlatformKit
import TestSupport
import Testing

/// Adding friends to a conversation: the friend list leaves out its members, asked of messaging.
@Suite struct FriendPickerTests {
    func names(_ world: MessagingWorld, _ viewer: TestUser, _ query: String) async throws -> [String?] {
        let response = try await world.api.get(SocialPaths.friends + "?" + query, token: viewer.accessToken)
        #expect(response.status == 200, "\(response.text)")
        return try response.decode(WirePage<WireUserSummary>.self).items.map(\.username)
    }

    @Test func friendsNotInAConversationLeaveOutItsMembers() async throws {
        try await MessagingWorld.run { world in
            let group = try await world.group(world.ann, with: [world.bob, world.cat])
            #expect(try await names(world, world.ann, "notInConversation=\(group)") == ["dan"])
            #expect(try await names(world, world.ann, "notInConversation=\(group)&query=bo").isEmpty)
            let direct = try await world.direct(world.ann, world.dan)
            #expect(try await names(world, world.ann, "notInConversation=\(direct)") == ["bob", "cat"])
            let first = try await world.api.get(
                SocialPaths.friends + "?notInConversation=\(direct)&limit=1", token: world.ann.accessToken)
            let page = try first.decode(WirePage<WireUserSummary>.self)
            #expect(page.items.map(\.username) == ["bob"])
            let cursor = try #require(page.nextCursor)
            #expect(
                try await names(world, world.ann, "notInConversation=\(direct)&limit=1&cursor=\(cursor)") == ["cat"])
            // bob is in the group: his friends (ann, dan) less its members (ann, bob, cat).
            #expect(try await names(world, world.bob, "notInConversation=\(group)") == ["dan"])
        }
    }

    @Test func aConversationTheCallerIsNotInReadsAsNotFound() async throws {
        try await MessagingWorld.run { world in
            let group = try await world.group(world.ann, with: [world.bob, world.dan])
            for outsider in [world.cat, world.eve] {
                let response = try await world.api.get(
                    SocialPaths.friends + "?notInConversation=\(group)", token: outsider.accessToken)
                #expect(response.status == 404)
                #expect(response.problem?.detail == "The conversation was not found.")
            }
            let unknown = try await world.api.get(
                SocialPaths.friends + "?notInConversation=no-such-conversation", token: world.ann.accessToken)
            #expect(unknown.status == 404)
            let tooLong = try await world.api.get(
                SocialPaths.friends + "?notInConversation=" + String(repeating: "x", count: 65),
                token: world.ann.accessToken)
            #expect(tooLong.status == 400)
            #expect(tooLong.problem?.errors?.first?.field == "notInConversation")
        }
    }
}
