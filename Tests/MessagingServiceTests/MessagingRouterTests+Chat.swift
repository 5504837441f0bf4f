import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import Testing

@testable import MessagingService

/// Reactions, pinned topics, search operators, read receipts and typing at the router: validation and who may.
extension MessagingRouterTests {
    /// A message of ann's in the group of ann, bob and cat.
    func groupMessage(_ text: String = "hello") async throws -> Int64 {
        try await group()
        return try await database.send(
            NewMessage(
                conversationID: "g", senderID: "ann", text: text, topicID: nil, topicName: nil, mentions: [],
                idempotencyKey: nil, now: Date())
        ).message.id
    }

    /// The body of an answer, decoded.
    func body<T: Decodable>(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, as user: String,
        json: String? = nil, _ type: T.Type
    ) async throws -> T {
        var headers: HTTPFields = [.authorization: "Bearer \(user)"]
        if json != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            try PlatformJSON.decoder.decode(T.self, from: Data(response.body.readableBytesView))
        }
    }

    struct Page: Decodable {
        var items: [MessageView]
    }

    @Test func reactionsNameABadEmojiRefuseOutsidersAndShowWhichAreMine() async throws {
        let message = try await groupMessage()
        try await app().test(.router) { client async throws in
            let messages = MessagingPaths.conversations + "/g/messages"
            let reaction = messages + "/\(message)/reactions/"
            #expect(try await call(client, .put, reaction + "ok", as: "bob").problem?.code == "invalid_emoji")
            #expect(try await call(client, .put, reaction + "%F0%9F%91%8D", as: "eve").problem?.code == "not_found")
            #expect(try await call(client, .delete, reaction + ":tada:", as: "eve").problem?.code == "not_found")
            #expect(
                try await call(client, .put, messages + "/999/reactions/:tada:", as: "bob").problem?.code
                    == "not_found")
            // ann reads the page first: kept for everyone while nobody reacted
            #expect(try await body(client, .get, messages, as: "ann", Page.self).items.first?.reactions == nil)
            let added = try await body(client, .put, reaction + "%F0%9F%91%8D", as: "bob", ReactionsView.self)
            #expect(added.reactions.map(\.emoji) == ["👍"] && added.reactions.first?.me == true)
            _ = try await body(client, .put, reaction + "%F0%9F%91%8D", as: "bob", ReactionsView.self)
            let live = notices.live.withLock { $0.filter { $0.type.hasPrefix("reaction.") } }
            #expect(live.map(\.type) == ["reaction.added"], "adding twice is one change")
            #expect(live.first?.recipients.sorted() == ["ann", "bob", "cat"])
            // each reader sees whether they reacted, though the page is kept
            for (reader, mine) in [("bob", true), ("cat", false), ("bob", true), ("cat", false)] {
                let reactions = try await body(client, .get, messages, as: reader, Page.self).items.first?.reactions
                #expect(reactions?.first?.me == mine, "\(reader)")
                #expect(reactions?.first?.userIds == ["bob"])
            }
            let removed = try await body(client, .delete, reaction + "%F0%9F%91%8D", as: "bob", ReactionsView.self)
            #expect(removed.reactions.isEmpty)
            #expect(notices.live.withLock { $0.last?.type } == "reaction.removed")
        }
    }

    struct TopicWire: Decodable {
        var name: String
        var pinned: Bool
    }

    struct Topics: Decodable {
        var items: [TopicWire]
    }

    @Test func topicsArePinnedByMembersOnly() async throws {
        try await group()
        let topic = try #require(try await database.createTopic("plans", in: "g", by: "ann", now: Date()).topic.id)
        _ = try await database.createTopic("later", in: "g", by: "ann", now: Date())
        try await app().test(.router) { client async throws in
            let topics = MessagingPaths.conversations + "/g/topics"
            let pin = topics + "/\(topic)/pin"
            #expect(try await call(client, .put, pin, as: "eve").problem?.code == "not_found")
            #expect(try await call(client, .put, topics + "/999/pin", as: "bob").problem?.code == "not_found")
            #expect(try await body(client, .put, pin, as: "bob", TopicWire.self).pinned)
            let bobs = try await body(client, .get, topics, as: "bob", Topics.self)
            #expect(bobs.items.map(\.name) == ["plans", "later"])
            #expect(try await body(client, .get, topics, as: "cat", Topics.self).items.map(\.pinned) == [false, false])
            #expect(try await body(client, .delete, pin, as: "bob", TopicWire.self).pinned == false)
        }
    }

    /// How many results `user` gets searching for `query` (percent-encoded).
    func searchHits(_ client: some TestClientProtocol, _ query: String, as user: String) async throws -> Int {
        try await body(client, .get, MessagingPaths.search + "?query=" + query, as: user, SearchHits.self).items.count
    }

    struct SearchHits: Decodable {
        struct Hit: Decodable {
            var snippet: String
        }
        var items: [Hit]
    }

    @Test func searchOperatorsNameWhatIsWrong() async throws {
        _ = try await groupMessage("pizza tonight")
        try await app().test(.router) { client async throws in
            let search = MessagingPaths.search + "?query="
            #expect(try await call(client, .get, search + "pizza%20to:bob", as: "bob").problem?.code == "invalid_query")
            #expect(
                try await call(client, .get, search + "pizza%20before:2026-02-30", as: "bob").problem?.code
                    == "invalid_before")
            #expect(
                try await call(client, .get, search + "pizza%20has:video", as: "bob").problem?.code == "invalid_has")
            #expect(
                try await call(client, .get, search + "pizza&conversationId=g", as: "eve").problem?.code
                    == "not_found")
            #expect(try await searchHits(client, "pizza%20from:ann", as: "bob") == 1)
            #expect(try await searchHits(client, "pizza%20from:cat", as: "bob") == 0)
            #expect(try await searchHits(client, "pizza%20from:nobody", as: "bob") == 0)
            #expect(try await searchHits(client, "pizza%20has:image", as: "bob") == 0, "no message has an image")
            #expect(try await searchHits(client, "pizza", as: "eve") == 0)
        }
    }

    @Test func readReceiptsShowInDirectChatsWhileBothShare() async throws {
        _ = try await database.openDirect("ann", with: "bob", id: "d", now: Date())
        let message = try await database.send(
            NewMessage(
                conversationID: "d", senderID: "ann", text: "hi", topicID: nil, topicName: nil, mentions: [],
                idempotencyKey: nil, now: Date())
        ).message.id
        _ = try await database.markRead("d", upTo: message, topic: nil, by: "bob")
        try await app().test(.router) { client async throws in
            let direct = MessagingPaths.conversations + "/d"
            let settings = MessagingPaths.prefix + "/settings"
            struct Receipt: Decodable { var otherLastReadId: Int64? }
            #expect(try await body(client, .get, direct, as: "ann", Receipt.self).otherLastReadId == message)
            #expect(try await call(client, .get, direct, as: "eve").problem?.code == "not_found")
            let bad = try await call(client, .put, settings, as: "bob", json: #"{"shareReadReceipts":"no"}"#)
            #expect(bad.problem?.code == "invalid_body")
            #expect(try await body(client, .get, settings, as: "bob", SettingsView.self).shareReadReceipts)
            let off = try await body(
                client, .put, settings, as: "bob", json: #"{"shareReadReceipts":false}"#, SettingsView.self)
            #expect(!off.shareReadReceipts)
            #expect(try await body(client, .get, direct, as: "ann", Receipt.self).otherLastReadId == nil)
            let bobs = try await body(client, .get, direct, as: "bob", Receipt.self)
            #expect(bobs.otherLastReadId == nil, "nor see theirs")
            #expect(try await body(client, .get, settings, as: "ann", SettingsView.self).shareReadReceipts)
        }
    }

    @Test func typingReachesTheOtherMembersAtMostEveryThreeSeconds() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let typing = MessagingPaths.conversations + "/g/typing"
            #expect(try await call(client, .post, typing, as: "eve").problem?.code == "not_found")
            #expect(try await call(client, .post, typing, as: "bob").status == .accepted)
            #expect(try await call(client, .post, typing, as: "bob").status == .accepted)
            let live = notices.live.withLock { $0.filter { $0.type == "typing" } }
            #expect(live.count == 1)
            #expect(live.first?.recipients.sorted() == ["ann", "cat"])
            typingClock.advance(by: TypingThrottle.interval)
            #expect(try await call(client, .post, typing, as: "bob").status == .accepted)
            #expect(notices.live.withLock { $0.filter { $0.type == "typing" } }.count == 2, "again after 3 s")
            #expect(notices.sent.withLock { $0.isEmpty }, "never an inbox entry")
        }
    }
}
