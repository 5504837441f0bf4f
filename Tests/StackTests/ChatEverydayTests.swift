import Foundation
import PlatformKit
import TestSupport
import Testing

/// A day of chat through the gateway: reactions seen live by the others, a pinned topic, a search with operators,
/// a read receipt shown and then withheld, and an outsider refused at each step.
@Suite struct ChatEverydayTests {
    struct Reaction: Decodable {
        var emoji: String
        var count: Int
        var me: Bool
        var userIds: [String]
    }

    struct Reacted: Decodable {
        var reactions: [Reaction]
    }

    struct Message: Decodable {
        var id: Int
        var reactions: [Reaction]?
    }

    struct Topic: Decodable {
        var id: Int
        var name: String
        var pinned: Bool
    }

    struct Receipt: Decodable {
        var otherLastReadId: Int?
    }

    @Test func reactPinSearchAndReadReceipts() async throws {
        try await MessagingWorld.run { world in
            let api = world.api
            let (ann, bob, eve) = (world.ann, world.bob, world.eve)
            let group = try await world.group(ann, with: [bob, world.cat])
            let sent = try await world.send(ann, group, "pizza tonight?", topic: "food")
            #expect(sent.status == 201, "\(sent.text)")
            let message = try sent.decode(WireMessage.self)
            _ = try await world.message(bob, group, "pizza sounds good")

            // bob reacts; ann and cat hear it live, and the page shows it to each as theirs or not
            let reaction = world.path(group, "/messages/\(message.id)/reactions/%F0%9F%91%8D")
            let added = try await api.send(.PUT, reaction, token: bob.accessToken)
            #expect(added.status == 200, "\(added.text)")
            #expect(try added.decode(Reacted.self).reactions.first?.me == true)
            let live = world.notices.live.filter { $0.type == "reaction.added" }
            #expect(live.count == 1)
            #expect(Set(live.first?.recipients ?? []) == [ann.id, bob.id, world.cat.id])
            let page = try await api.get(world.path(group, "/messages"), token: ann.accessToken)
            let shown = try page.decode(WireItems<Message>.self).items.first { $0.id == message.id }?.reactions
            #expect(shown?.first?.emoji == "👍" && shown?.first?.count == 1 && shown?.first?.me == false)
            #expect(shown?.first?.userIds == [bob.id])
            #expect(try await api.send(.PUT, reaction, token: eve.accessToken).status == 404)

            // ann pins the quiet topic: first in her list, not in bob's (the latest message first)
            _ = try await api.post(world.path(group, "/topics"), token: ann.accessToken, json: ["name": "later"])
            let topics = try await api.get(world.path(group, "/topics"), token: ann.accessToken)
            let later = try #require(try topics.decode(WireItems<Topic>.self).items.first { $0.name == "later" })
            let pin = world.path(group, "/topics/\(later.id)/pin")
            #expect(try await api.send(.PUT, pin, token: eve.accessToken).status == 404)
            #expect(try await api.send(.PUT, pin, token: ann.accessToken).status == 200)
            let annsTopics = try await api.get(world.path(group, "/topics"), token: ann.accessToken)
            #expect(try annsTopics.decode(WireItems<Topic>.self).items.map(\.name) == ["later", "food"])
            let bobsTopics = try await api.get(world.path(group, "/topics"), token: bob.accessToken)
            #expect(try bobsTopics.decode(WireItems<Topic>.self).items.map(\.name) == ["food", "later"])

            // search with operators
            func search(_ query: String, as user: TestUser) async throws -> APIResponse {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                return try await api.get(MessagingPaths.search + "?query=" + encoded, token: user.accessToken)
            }
            let fromAnn = try await search("pizza from:ann in:food", as: bob)
            #expect(try world.hits(fromAnn).map(\.message.id) == [message.id], "\(fromAnn.text)")
            #expect(try world.hits(try await search("pizza from:bob", as: ann)).count == 1)
            #expect(try world.hits(try await search("pizza before:2000-01-01", as: ann)).isEmpty)
            #expect(try await search("pizza to:bob", as: ann).problem?.code == "invalid_query")
            #expect(try await search("pizza after:2026-02-30", as: ann).problem?.code == "invalid_after")
            #expect(try world.hits(try await search("pizza", as: eve)).isEmpty)

            // a read receipt in a direct chat, until bob stops sharing them
            let direct = try await world.direct(ann, bob)
            let hello = try await world.message(ann, direct, "hello")
            let read = try await api.post(
                world.path(direct, "/read"), token: bob.accessToken, json: ["messageId": hello])
            #expect(read.status == 200)
            let shownReceipt = try await api.get(world.path(direct), token: ann.accessToken)
            #expect(try shownReceipt.decode(Receipt.self).otherLastReadId == hello)
            #expect(try await api.get(world.path(direct), token: eve.accessToken).status == 404)
            let settings = MessagingPaths.prefix + "/settings"
            let off = try await api.send(.PUT, settings, token: bob.accessToken, json: ["shareReadReceipts": false])
            #expect(off.status == 200, "\(off.text)")
            let hidden = try await api.get(world.path(direct), token: ann.accessToken)
            #expect(try hidden.decode(Receipt.self).otherLastReadId == nil)

            // typing reaches the others live, never the inbox
            let notices = world.notices.all.count
            let typing = try await api.post(world.path(direct, "/typing"), token: ann.accessToken)
            #expect(typing.status == 202)
            #expect(world.notices.live.last?.type == "typing" && world.notices.live.last?.recipients == [bob.id])
            #expect(world.notices.all.count == notices)
            #expect(try await api.post(world.path(direct, "/typing"), token: eve.accessToken).status == 404)
        }
    }
}
