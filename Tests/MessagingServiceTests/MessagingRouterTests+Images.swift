import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import MessagingService

/// Images in messages at the router: what an upload checks, who may attach and read an image, how it is served.
extension MessagingRouterTests {
    static let images = MessagingPaths.conversations + "/g/images"

    /// An upload's answer: the image, or the problem.
    struct Upload {
        var status: HTTPResponse.Status
        var image: ImageView?
        var problem: Problem?
    }

    func upload(_ client: some TestClientProtocol, _ bytes: Data, as user: String, to path: String = images)
        async throws -> Upload
    {
        try await client.execute(
            uri: path, method: .post, headers: [.authorization: "Bearer \(user)"], body: ByteBuffer(bytes: bytes)
        ) { response in
            let body = Data(response.body.readableBytesView)
            return Upload(
                status: response.status,
                image: response.status == .created ? try PlatformJSON.decoder.decode(ImageView.self, from: body) : nil,
                problem: response.status.code >= 400 ? try? JSONDecoder().decode(Problem.self, from: body) : nil)
        }
    }

    @Test func anUploadIsCheckedAndAnswersItsSizeForMembersOnly() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let png = TestImages.png(width: 640, height: 480)
            let image = try #require(try await upload(client, png, as: "ann").image)
            #expect(image.width == 640 && image.height == 480 && image.contentType == "image/png")
            #expect(image.url == Self.images + "/\(image.id)" && image.byteCount == png.count)
            #expect(try await upload(client, png, as: "eve").problem?.code == "not_found")
            let notAnImage = try await upload(client, Data("not a png".utf8), as: "ann")
            #expect(notAnImage.problem?.code == "unsupported_media_type")
            var broken = TestImages.png()
            broken[broken.count - 1] ^= 0xFF  // IEND's CRC
            let malformed = try await upload(client, broken, as: "ann")
            #expect(malformed.problem?.code == "invalid_image" && malformed.problem?.errors?.first?.field == "body")
            let tooLarge = try await upload(client, png + Data(count: ChatImages.maximumBytes), as: "ann")
            #expect(tooLarge.status == .contentTooLarge && tooLarge.problem?.code == "payload_too_large")
            let sizeless = try await upload(client, TestImages.png(width: 0, height: 0), as: "ann")
            #expect(sizeless.problem?.code == "invalid_image")
        }
    }

    @Test func onlyItsUploaderSendsAnImageAndMembersReadItWithAnETag() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let image = try #require(try await upload(client, TestImages.png(width: 2, height: 2), as: "ann").image)
            let messages = MessagingPaths.conversations + "/g/messages"
            // Before it is sent, only ann sees it; bob cannot send it, eve cannot see the conversation.
            #expect(try await call(client, .get, image.url, as: "ann").status == .ok)
            #expect(try await call(client, .get, image.url, as: "bob").problem?.code == "not_found")
            let stolen = try await call(
                client, .post, messages, as: "bob", json: #"{"text": "", "imageIds": ["\#(image.id)"]}"#)
            #expect(stolen.problem?.code == "invalid_image_ids" && stolen.problem?.errors?.first?.field == "imageIds")
            let tooMany = (0..<5).map { _ in #""\#(UUID().uuidString)""# }.joined(separator: ",")
            let many = try await call(client, .post, messages, as: "ann", json: #"{"imageIds": [\#(tooMany)]}"#)
            #expect(many.problem?.code == "invalid_image_ids")
            #expect(
                try await call(client, .post, messages, as: "ann", json: #"{"text": " "}"#).problem?.code
                    == "invalid_text")
            // ann sends it without words; the answer and the live event carry it.
            let sent = try await body(
                client, .post, messages, as: "ann", json: #"{"imageIds": ["\#(image.id)"]}"#, MessageView.self)
            #expect(sent.text == "" && sent.images?.map(\.id) == [image.id] && sent.images?.first?.width == 2)
            let event = try #require(notices.live.withLock { $0 }.last)
            #expect(event.type == "message.created")
            #expect(String(decoding: event.payload, as: UTF8.self).contains(#""width":2"#))
            // Members read the bytes with an ETag and keep them; a repeat with the tag is 304; eve is refused.
            try await client.execute(uri: image.url, method: .get, headers: [.authorization: "Bearer bob"]) {
                response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                #expect(response.headers[.cacheControl] == StoredBytes.immutableCacheControl)
                let tag = try #require(response.headers[.eTag])
                try await client.execute(
                    uri: image.url, method: .get, headers: [.authorization: "Bearer bob", .ifNoneMatch: tag]
                ) { again in #expect(again.status == .notModified) }
            }
            #expect(try await call(client, .get, image.url, as: "eve").problem?.code == "not_found")
            let page = try await body(client, .get, messages, as: "cat", Page.self)
            #expect(page.items.last?.images?.first?.url == image.url)
            let found = try await body(
                client, .get, MessagingPaths.search + "?query=has:image", as: "bob", SearchPage.self)
            #expect(found.items.map(\.message.id) == [sent.id])
        }
    }

    @Test func anAdminReadsAReportedMessagesImageWithoutBeingAMember() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let image = try #require(try await upload(client, TestImages.png(), as: "ann").image)
            let sent = try await body(
                client, .post, MessagingPaths.conversations + "/g/messages", as: "ann",
                json: #"{"imageIds": ["\#(image.id)"]}"#, MessageView.self)
            #expect(try await call(client, .get, image.url, as: "admin").problem?.code == "not_found")
            let reports = MessagingPaths.conversations + "/g/messages/\(sent.id)/reports"
            #expect(try await call(client, .post, reports, as: "bob", json: #"{"reason":"sexual"}"#).status == .created)
            #expect(try await call(client, .get, image.url, as: "admin").status == .ok)
            #expect(try await call(client, .get, image.url, as: "eve").problem?.code == "not_found")
        }
    }

    @Test func onlyAMessageWithImagesMayBeEditedToNoWords() async throws {
        try await group()
        try await app().test(.router) { client async throws in
            let messages = MessagingPaths.conversations + "/g/messages"
            let image = try #require(try await upload(client, TestImages.png(), as: "ann").image)
            let pictured = try await body(
                client, .post, messages, as: "ann", json: #"{"text": "caption", "imageIds": ["\#(image.id)"]}"#,
                MessageView.self)
            let plain = try await body(
                client, .post, messages, as: "ann", json: #"{"text": "words"}"#, MessageView.self)
            let edited = try await body(
                client, .patch, messages + "/\(pictured.id)", as: "ann", json: #"{"text": ""}"#, MessageView.self)
            #expect(edited.text == "" && edited.images?.map(\.id) == [image.id])
            let refused = try await call(client, .patch, messages + "/\(plain.id)", as: "ann", json: #"{"text": ""}"#)
            #expect(refused.problem?.code == "invalid_text")
        }
    }

    struct SearchPage: Decodable {
        struct Hit: Decodable { var message: MessageView }
        var items: [Hit]
    }
}
