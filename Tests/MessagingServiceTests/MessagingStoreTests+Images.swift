import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import MessagingService

/// Images in messages, on both engines: an upload waits for its sender's message, goes with it, and is found by
/// `has:image`.
extension MessagingStoreTests {
    /// Uploads a small PNG of `userID`'s to `conversation`; answers its id.
    func upload(_ store: any MessagingStore, _ userID: String, _ conversation: String, at: Date? = nil) async throws
        -> String
    {
        let bytes = TestImages.png(width: 4, height: 3)
        let image = MessageImage(
            id: UUID().uuidString.lowercased(), mediaType: "image/png", width: 4, height: 3, byteCount: bytes.count)
        try await store.addImage(
            image, bytes: StoredBytes(bytes: bytes, mediaType: "image/png", tag: EntityTag(of: bytes)),
            to: conversation, by: userID, now: at ?? now)
        return image.id
    }

    func send(_ store: any MessagingStore, _ sender: String, _ text: String, images: [String]) async throws
        -> SentMessage
    {
        try await store.send(
            NewMessage(
                conversationID: "g", senderID: sender, text: text, topicID: nil, topicName: nil, mentions: [],
                idempotencyKey: nil, now: now, imageIDs: images))
    }

    @Test(arguments: StoreKind.allCases) func anUploadIsItsSendersUntilAMessageCarriesItToTheMembers(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            _ = try await store.createGroup(id: "h", name: "H", by: "a", members: [], now: now)
            let first = try await upload(store, "a", "g")
            let second = try await upload(store, "a", "g")
            let elsewhere = try await upload(store, "a", "h")
            let notFound = MessagingError.notFound("The image")
            #expect(try await store.image(first, in: "g", asMember: "a").mediaType == "image/png")
            await #expect(throws: notFound) { try await store.image(first, in: "g", asMember: "b") }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await upload(store, "x", "g")
            }
            // Only the uploader's own uploads to this conversation, not yet sent, can go in a message.
            await #expect(throws: ChatImages.notAttachable(first)) { try await send(store, "b", "", images: [first]) }
            await #expect(throws: ChatImages.notAttachable(elsewhere)) {
                try await send(store, "a", "", images: [first, elsewhere])
            }
            let sent = try await send(store, "a", "", images: [second, first])
            #expect(sent.message.images.map(\.id) == [second, first], "in the order named")
            #expect(
                sent.message.images.first
                    == MessageImage(
                        id: second, mediaType: "image/png", width: 4, height: 3, byteCount: TestImages.png().count))
            await #expect(throws: ChatImages.notAttachable(first)) { try await send(store, "a", "", images: [first]) }
            #expect(try await store.image(first, in: "g", asMember: "b").bytes == TestImages.png(width: 4, height: 3))
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.image(first, in: "g", asMember: "x")
            }
            await #expect(throws: notFound) { try await store.image(first, in: "h", asMember: "a") }
            let page = try await store.messages(in: "g", topic: nil, asMember: "b", anchor: .newest, limit: 10)
            #expect(page.messages.map { $0.images.map(\.id) } == [[second, first]])
            // Deleting the message deletes its images.
            _ = try await store.delete(sent.message.id, in: "g", by: "a")
            await #expect(throws: notFound) { try await store.image(first, in: "g", asMember: "a") }
        }
    }

    @Test(arguments: StoreKind.allCases) func hasImageFindsMessagesWithImagesWithOrWithoutWords(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            let pictured = try await send(store, "a", "pizza tonight", images: [try await upload(store, "a", "g")])
            let imageOnly = try await send(store, "b", "", images: [try await upload(store, "b", "g")])
            _ = try await send(store, "a", "pizza again", images: [])
            func ids(_ words: String) async throws -> [Int64] {
                try await store.search(
                    words.isEmpty ? [] : try SearchQuery.terms(words), filter: SearchFilter(hasImage: true), for: "b",
                    conversation: nil, topic: nil, offset: 0, limit: 10
                ).map(\.message.id)
            }
            #expect(try await ids("pizza") == [pictured.message.id])
            #expect(try await ids("") == [imageOnly.message.id, pictured.message.id], "newest first")
            let hit = try #require(
                try await store.search(
                    try SearchQuery.terms("tonight"), for: "b", conversation: nil, topic: nil, offset: 0, limit: 10
                ).first)
            #expect(hit.message.images == pictured.message.images && hit.message.images.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func unsentUploadsAreBoundedAndSweptAfterADay(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            var uploads: [String] = []
            for _ in 0..<ChatImages.maximumPending { uploads.append(try await upload(store, "a", "g")) }
            await #expect(throws: MessagingError.tooManyPendingImages) { try await upload(store, "a", "g") }
            _ = try await upload(store, "b", "g")
            let sent = try await send(store, "a", "", images: [uploads[0]])
            _ = try await upload(store, "a", "g")
            let dayLater = now + ChatImages.pendingLifetime + 1
            _ = try await upload(store, "a", "g", at: dayLater)
            #expect(try await store.sweepUnsentImages(before: dayLater - 1) == ChatImages.maximumPending + 1)
            await #expect(throws: MessagingError.notFound("The image")) {
                try await store.image(uploads[1], in: "g", asMember: "a")
            }
            #expect(try await store.image(uploads[0], in: "g", asMember: "b").mediaType == "image/png")
            #expect(sent.message.images.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases) func adminsReadTheImagesOfReportedMessagesOnlyWhileReported(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            let image = try await upload(store, "a", "g")
            let notFound = MessagingError.notFound("The image")
            await #expect(throws: notFound) { try await store.reportedImage(image, in: "g") }
            let sent = try await send(store, "a", "look", images: [image])
            await #expect(throws: notFound) { try await store.reportedImage(image, in: "g") }
            _ = try await report(store, sent.message.id, by: "b")
            #expect(try await store.reportedImage(image, in: "g").mediaType == "image/png")
            await #expect(throws: notFound) { try await store.reportedImage(image, in: "elsewhere") }
            let queue = try await store.messageReportQueue(order: .oldest, after: nil, limit: 10)
            #expect(queue.first?.item.message.images.map(\.id) == [image])
            _ = try await store.decideMessageReports(on: sent.message.id, .keep, by: "admin", now: now)
            await #expect(throws: notFound) { try await store.reportedImage(image, in: "g") }
        }
    }
}
