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
}
