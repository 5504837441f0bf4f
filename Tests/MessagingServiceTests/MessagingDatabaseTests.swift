import Foundation
import PlatformKit
import Testing

@testable import MessagingService

/// The invariants the database guards, on a fresh in-memory database per test.
@Suite struct MessagingDatabaseTests {
    let database: MessagingDatabase
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        database = try MessagingDatabase(.inMemory)
    }

    func send(_ sender: String, _ conversation: String, _ text: String, topic: String? = nil, key: String? = nil)
        async throws -> SentMessage
    {
        try await database.send(
            NewMessage(
                conversationID: conversation, senderID: sender, text: text, topicID: nil, topicName: topic,
                mentions: [], idempotencyKey: key, now: now))
    }

    @Test func aPairHasOneDirectConversationWhoeverOpensIt() async throws {
        let (first, created) = try await database.openDirect("a", with: "b", id: "c1", now: now)
        let (second, createdAgain) = try await database.openDirect("b", with: "a", id: "c2", now: now)
        #expect(created && !createdAgain)
        #expect(first.id == second.id)
    }

    @Test func anIdempotencyKeyStoresOneMessagePerSender() async throws {
        _ = try await database.openDirect("a", with: "b", id: "c", now: now)
        let first = try await send("a", "c", "hello", key: "k")
        let again = try await send("a", "c", "hello again", key: "k")
        let other = try await send("b", "c", "hello", key: "k")
        #expect(first.created && !again.created && other.created)
        #expect(again.message.id == first.message.id && again.message.text == "hello")
    }

    @Test func outsidersGetNotFound() async throws {
        _ = try await database.openDirect("a", with: "b", id: "c", now: now)
        await #expect(throws: MessagingError.notFound("The conversation")) { try await send("x", "c", "hi") }
        await #expect(throws: MessagingError.notFound("The conversation")) {
            try await database.messages(in: "c", topic: nil, asMember: "x", anchor: .newest, limit: 10)
        }
    }

    @Test func readMarkersOnlyMoveForwardAndMutedTopicsLeaveTheTotal() async throws {
        _ = try await database.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
        let first = try await send("a", "g", "one", topic: "loud")
        let quiet = try await send("a", "g", "two", topic: "quiet")
        let third = try await send("a", "g", "three")
        let quietTopic = try #require(quiet.message.topicId)
        try await database.setTopicPolicy(.muted, topic: quietTopic, in: "g", for: "b")
        let (marker, unread) = try await database.markRead("g", upTo: first.message.id, topic: nil, by: "b")
        #expect(marker == first.message.id)
        #expect(unread.total == 1, "the muted topic's message is not counted")
        #expect(unread.byTopic[quietTopic] == 1)
        let (_, after) = try await database.markRead("g", upTo: third.message.id, topic: nil, by: "b")
        #expect(after.total == 0 && after.byTopic.isEmpty)
        let (back, _) = try await database.markRead("g", upTo: first.message.id, topic: nil, by: "b")
        #expect(back == third.message.id, "a marker never moves back")
    }

    @Test func theLastAdminLeavingHandsTheGroupOn() async throws {
        _ = try await database.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
        let remaining = try await database.removeMember("a", from: "g", by: "a")
        #expect(remaining == ["b", "c"])
        let (_, members) = try await database.conversation("g", asMember: "b")
        #expect(members.filter(\.isAdmin).map(\.userId) == ["b"])
    }
}
