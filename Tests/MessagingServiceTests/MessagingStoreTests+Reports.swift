import Foundation
import TestSupport
import Testing

@testable import MessagingService

/// Reported messages in the store, on both engines.
extension MessagingStoreTests {
    func report(_ store: any MessagingStore, _ message: Int64, by reporter: String, in conversation: String = "g")
        async throws -> (report: MessageReportRecord, created: Bool)
    {
        try await store.reportMessage(
            message, in: conversation, by: reporter, reason: .harassment, note: "from \(reporter)", threshold: 3,
            now: now)
    }

    @Test(arguments: StoreKind.allCases)
    func threeReportsHideAMessageFromAllButItsSenderUntilKept(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // given: a group of five, a message of a's
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c", "d", "e"], now: now)
            let message = try await send(store, "a", "g", "rude words").message.id
            // when: b twice, c, then d
            #expect(try await report(store, message, by: "b").created)
            #expect(!(try await report(store, message, by: "b").created))
            _ = try await report(store, message, by: "c")
            let before = try await store.messages(in: "g", topic: nil, asMember: "e", anchor: .newest, limit: 10)
            #expect(before.messages.map(\.id) == [message])
            #expect(!before.holdsHidden)
            _ = try await report(store, message, by: "d")
            // then: gone for e in pages, search and counts; a sees it marked
            let after = try await store.messages(in: "g", topic: nil, asMember: "e", anchor: .newest, limit: 10)
            #expect(after.messages.isEmpty)
            #expect(after.holdsHidden)
            #expect(try await store.unreadCounts(of: "e").isEmpty)
            let found = try await store.search(
                try SearchQuery.terms("rude"), for: "e", conversation: nil, topic: nil, offset: 0, limit: 10)
            #expect(found.isEmpty)
            #expect(try await store.conversations(of: "e", at: "g").lastMessage == nil)
            let own = try await store.messages(in: "g", topic: nil, asMember: "a", anchor: .newest, limit: 10)
            #expect(own.messages.map(\.hidden) == [true])
            await #expect(throws: MessagingError.notFound("The message")) {
                try await report(store, message, by: "e")
            }
            await #expect(throws: MessagingError.ownMessage) { try await report(store, message, by: "a") }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await report(store, message, by: "z")
            }
            // the queue shows the sender; keep shows it again and closes the round
            let queue = try await store.messageReportQueue(order: .oldest, after: nil, limit: 10)
            #expect(queue.map(\.item.message.senderId) == ["a"])
            #expect(queue.first?.item.reports.map(\.reporterId) == ["b", "c", "d"])
            let kept = try await store.decideMessageReports(on: message, .keep, by: "admin", now: now)
            #expect(kept.item.reports.allSatisfy { $0.decision == "keep" && $0.decidedBy == "admin" })
            let shown = try await store.messages(in: "g", topic: nil, asMember: "e", anchor: .newest, limit: 10)
            #expect(shown.messages.map(\.id) == [message])
            #expect(try await store.messageReportQueue(order: .oldest, after: nil, limit: 10).isEmpty)
            #expect(try await report(store, message, by: "b").created)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRemovedMessageIsGoneAndADirectChatsReportIsQueued(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // given: one report in a direct chat (the threshold cannot be reached by two)
            _ = try await store.openDirect("a", with: "b", id: "d", now: now)
            let message = try await send(store, "a", "d", "go away").message.id
            _ = try await report(store, message, by: "b", in: "d")
            // when
            let most = try await store.messageReportQueue(order: .most, after: nil, limit: 10)
            #expect(most.map(\.item.conversationKind) == ["direct"])
            let removed = try await store.decideMessageReports(on: message, .remove, by: "admin", now: now)
            // then
            #expect(removed.item.message.senderId == "a")
            #expect(Set(removed.members) == ["a", "b"])
            let page = try await store.messages(in: "d", topic: nil, asMember: "a", anchor: .newest, limit: 10)
            #expect(page.messages.isEmpty)
            await #expect(throws: MessagingError.notFound("An open report of this message")) {
                try await store.decideMessageReports(on: message, .keep, by: "admin", now: now)
            }
        }
    }
}
