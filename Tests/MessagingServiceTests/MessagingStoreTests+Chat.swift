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
