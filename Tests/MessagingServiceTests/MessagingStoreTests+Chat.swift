import Foundation
import ServiceKit
import TestSupport
import Testing

@testable import MessagingService

/// Reactions, pinned topics, search operators and read receipts, on both engines.
extension MessagingStoreTests {
    @Test(arguments: StoreKind.allCases) func reactionsAreOnePerMemberAndEmojiAndShownPerReader(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let message = try await send(store, "a", "g", "lunch?").message.id
            let before = try await store.revision(of: "g", topic: nil, asMember: "a")
            let first = try await store.react("👍", to: message, in: "g", by: "b", adding: true, now: now)
            let again = try await store.react("👍", to: message, in: "g", by: "b", adding: true, now: now)
            #expect(first.changed && !again.changed)
            #expect(first.members.sorted() == ["a", "b", "c"])
            #expect(try await store.revision(of: "g", topic: nil, asMember: "a") > before)
            _ = try await store.react("👍", to: message, in: "g", by: "c", adding: true, now: now + 1)
            _ = try await store.react(":tada:", to: message, in: "g", by: "c", adding: true, now: now + 2)
            func reactions(as reader: String) async throws -> [ReactionSummary] {
                try await store.messages(in: "g", topic: nil, asMember: reader, anchor: .newest, limit: 10)
                    .messages.first?.reactions ?? []
            }
            #expect(
                try await reactions(as: "b") == [
                    ReactionSummary(emoji: "👍", count: 2, userIDs: ["b", "c"], mine: true),
                    ReactionSummary(emoji: ":tada:", count: 1, userIDs: ["c"], mine: false),
                ])
            #expect(try await reactions(as: "a").map(\.mine) == [false, false])
            let removed = try await store.react("👍", to: message, in: "g", by: "b", adding: false, now: now)
            let removedAgain = try await store.react("👍", to: message, in: "g", by: "b", adding: false, now: now)
            #expect(removed.changed && !removedAgain.changed)
            #expect(removed.reactions.first == ReactionSummary(emoji: "👍", count: 1, userIDs: ["c"], mine: false))
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.react("👍", to: message, in: "g", by: "x", adding: true, now: now)
            }
            await #expect(throws: MessagingError.notFound("The message")) {
                try await store.react("👍", to: message + 100, in: "g", by: "b", adding: true, now: now)
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func aMessageCarriesAtMostTwentyDifferentEmoji(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let message = try await send(store, "a", "g", "vote").message.id
            for n in 0..<Reactions.maximumDistinct {
                _ = try await store.react(":e\(n):", to: message, in: "g", by: "b", adding: true, now: now)
            }
            await #expect(throws: MessagingError.tooManyReactions) {
                try await store.react(":one-more:", to: message, in: "g", by: "c", adding: true, now: now)
            }
            let joined = try await store.react(":e0:", to: message, in: "g", by: "c", adding: true, now: now)
            #expect(joined.changed && joined.reactions.count == Reactions.maximumDistinct)
            // A deleted message takes its reactions with it.
            _ = try await store.delete(message, in: "g", by: "a")
            await #expect(throws: MessagingError.notFound("The message")) {
                try await store.react(":e0:", to: message, in: "g", by: "c", adding: false, now: now)
            }
        }
    }
}

extension MessagingStoreTests {
    @Test(arguments: StoreKind.allCases) func pinnedTopicsComeFirstForTheirMemberOnly(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let old = try #require(try await send(store, "a", "g", "one", topic: "old").message.topicId)
            let mid = try #require(try await send(store, "a", "g", "two", topic: "mid").message.topicId)
            let new = try #require(try await send(store, "a", "g", "three", topic: "new").message.topicId)
            try await store.setTopicPinned(true, topic: old, in: "g", for: "b")
            #expect(try await store.topics(in: "g", asMember: "b").map(\.topic.id) == [old, new, mid])
            #expect(try await store.topics(in: "g", asMember: "b").map(\.pinned) == [true, false, false])
            #expect(try await store.topics(in: "g", asMember: "a").map(\.topic.id) == [new, mid, old])
            // a page at a time, the cursor carries whether its topic is pinned
            let first = try await store.topics(in: "g", asMember: "b", after: nil, limit: 1)
            let cursor = first.last.map {
                TopicOrder(pinned: $0.pinned, lastMessageID: $0.topic.lastMessageId ?? 0, id: $0.topic.id ?? 0)
            }
            let rest = try await store.topics(in: "g", asMember: "b", after: cursor, limit: 5)
            #expect(rest.map(\.topic.id) == [new, mid])
            try await store.setTopicPinned(false, topic: old, in: "g", for: "b")
            #expect(try await store.topics(in: "g", asMember: "b").map(\.topic.id) == [new, mid, old])
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.setTopicPinned(true, topic: old, in: "g", for: "x")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func aMemberPinsAtMostTenTopicsOfAGroup(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            var topics: [Int64] = []
            for n in 0...MessagingLimits.maximumPinnedTopics {
                topics.append(try #require(try await store.createTopic("t\(n)", in: "g", by: "a", now: now).topic.id))
            }
            for topic in topics.dropLast() { try await store.setTopicPinned(true, topic: topic, in: "g", for: "b") }
            try await store.setTopicPinned(true, topic: topics[0], in: "g", for: "b")
            await #expect(throws: MessagingError.tooManyPinned) {
                try await store.setTopicPinned(true, topic: topics.last ?? 0, in: "g", for: "b")
            }
            try await store.setTopicPinned(true, topic: topics.last ?? 0, in: "g", for: "c")
        }
    }

    @Test(arguments: StoreKind.allCases) func searchNarrowsBySenderTopicAndDay(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            _ = try await store.createGroup(id: "h", name: "H", by: "c", members: [], now: now)
            func send(_ sender: String, _ conversation: String, _ topic: String?, daysLater: Double) async throws
                -> Int64
            {
                try await store.send(
                    NewMessage(
                        conversationID: conversation, senderID: sender, text: "pizza", topicID: nil, topicName: topic,
                        mentions: [], idempotencyKey: nil, now: now + daysLater * 86_400)
                ).message.id
            }
            let first = try await send("a", "g", "Food", daysLater: 0)
            let second = try await send("b", "g", nil, daysLater: 1)
            let third = try await send("a", "g", nil, daysLater: 2)
            _ = try await send("c", "h", "food", daysLater: 0)
            func ids(_ filter: SearchFilter) async throws -> Set<Int64> {
                Set(
                    try await store.search(
                        try SearchQuery.terms("pizza"), filter: filter, for: "b", conversation: nil, topic: nil,
                        offset: 0, limit: 10
                    ).map(\.message.id))
            }
            #expect(try await ids(.none) == [first, second, third])
            #expect(try await ids(SearchFilter(senderID: "a")) == [first, third])
            #expect(try await ids(SearchFilter(topic: "FOOD")) == [first], "only the caller's conversations")
            #expect(try await ids(SearchFilter(before: now + 86_400)) == [first])
            #expect(try await ids(SearchFilter(after: now + 86_400)) == [second, third])
            #expect(try await ids(SearchFilter(after: now + 86_400, senderID: "a")) == [third])
        }
    }

    @Test(arguments: StoreKind.allCases) func readReceiptsAreSharedUntilAMemberSaysNo(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            #expect(try await store.sharesReadReceipts(["a", "b"]) == ["a": true, "b": true])
            try await store.setSharesReadReceipts(false, for: "b")
            #expect(try await store.sharesReadReceipts(["a", "b"]) == ["a": true, "b": false])
            try await store.setSharesReadReceipts(true, for: "b")
            #expect(try await store.sharesReadReceipts(["b"]) == ["b": true])
        }
    }
}
