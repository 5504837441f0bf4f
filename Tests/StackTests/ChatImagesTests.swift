import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// Images in chat through the gateway: ann uploads one and sends it to bob, whose stream shows its size before he
/// fetches it; bob reads it (then only revalidates), carol, not in the conversation, is refused, and `has:image`
/// finds it.
@Suite struct ChatImagesTests {
    struct Image: Decodable, Sendable {
        var id: String
        var width: Int
        var height: Int
        var contentType: String
        var url: String
    }

    struct Message: Decodable, Sendable {
        var id: Int
        var text: String
        var images: [Image]?
    }

    struct Send: Encodable, Sendable {
        var text: String
        var imageIds: [String]
    }

    struct Hit: Decodable, Sendable {
        var message: Message
    }

    @Test func annSendsBobAnImageThatCarolCannotSee() async throws {
        let realtime = RealtimeTests()
        try await realtime.withRealtimeStack { stack in
            let (ann, bob, conversation) = try await realtime.friendsChat(stack)
            let carol = try await stack.register("carol")
            let api = stack.gateway
            let chat = "\(MessagingPaths.conversations)/\(conversation)"
            let png = TestImages.png(size: 300, width: 1_200, height: 800)

            // carol cannot upload to the conversation; ann's upload answers the size to lay it out with
            let refused = try await api.send(.POST, chat + "/images", token: carol.accessToken, body: png)
            #expect(refused.status == 404 && refused.problem?.code == "not_found")
            let uploaded = try await api.send(
                .POST, chat + "/images", token: ann.accessToken, body: png, headers: [("Content-Type", "image/png")])
            #expect(uploaded.status == 201, "\(uploaded.text)")
            let image = try uploaded.decode(Image.self)
            #expect(image.width == 1_200 && image.height == 800 && image.contentType == "image/png")
            #expect(try await api.get(image.url, token: bob.accessToken).status == 404, "not sent yet")

            // sent with a caption, it reaches bob's stream with its size
            let bobsStream = try await EventStreamClient.connect(
                api.baseURL + NotificationsPaths.stream, token: bob.accessToken)
            let sent = try await api.post(
                chat + "/messages", token: ann.accessToken, json: Send(text: "The view", imageIds: [image.id]))
            #expect(sent.status == 201, "\(sent.text)")
            var created: Message?
            while created == nil {
                let event = try await bobsStream.nextEvent()
                if event.event == "message.created" { created = try event.decode(Message.self) }
            }
            bobsStream.close()
            let message = try #require(created)
            #expect(message.text == "The view")
            let shown = try #require(message.images?.first)
            #expect(shown.id == image.id && shown.width == 1_200 && shown.height == 800 && shown.url == image.url)

            // bob reads the bytes, then revalidates with the ETag; carol is refused
            let bytes = try await api.get(image.url, token: bob.accessToken)
            #expect(bytes.status == 200 && bytes.body == png)
            #expect(bytes.headers.first(name: "cache-control") == StoredBytes.immutableCacheControl)
            let etag = try #require(bytes.headers.first(name: "etag"))
            let again = try await api.get(image.url, token: bob.accessToken, headers: [("If-None-Match", etag)])
            #expect(again.status == 304 && again.body.isEmpty)
            let stranger = try await api.get(image.url, token: carol.accessToken)
            #expect(stranger.status == 404 && stranger.problem?.code == "not_found")

            // the history shows it, and has:image finds it, with or without words
            let page = try await api.get(chat + "/messages", token: bob.accessToken)
            #expect(try page.decode(WireItems<Message>.self).items.last?.images?.first?.id == image.id)
            _ = try await api.post(chat + "/messages", token: bob.accessToken, json: ["text": "The view is nice"])
            for query in ["has%3Aimage", "view%20has%3Aimage"] {
                let found = try await api.get(MessagingPaths.search + "?query=" + query, token: bob.accessToken)
                #expect(try found.decode(WireItems<Hit>.self).items.map(\.message.id) == [message.id], "\(query)")
            }
        }
    }
}
