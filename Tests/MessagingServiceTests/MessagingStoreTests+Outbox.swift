import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import MessagingService

/// With the outbox as the notice sink, every change to messages writes its notices and live events in its own
/// transaction, on both engines: they commit with it, and a refused change writes none.
extension MessagingStoreTests {
    /// A sink appending to the store's outbox, and that outbox.
    func outboxSink(_ store: any MessagingStore) throws -> (OutboxNoticeSink, any OutboxStorage) {
        let outbox = try #require(store.outbox)
        return (OutboxNoticeSink.undelivered(outbox, producer: .messaging), outbox)
    }

    /// An outbox entry's post, as the notifications service reads it: a notice's `kind` or an event's `type`.
    struct Posted: Decodable, Equatable {
        var recipientIds: [String]
        var kind: String?
        var type: String?
    }

    /// The posts waiting in the outbox, oldest first, their recipients sorted.
    func waiting(_ outbox: any OutboxStorage) async throws -> [Posted] {
        try await outbox.waitingEntries().map { entry in
            var posted = try JSONDecoder().decode(Posted.self, from: entry.message.body)
            posted.recipientIds.sort()
            return posted
        }
    }

    @Test(arguments: StoreKind.allCases) func anEditsMentionNoticeAndEventAreWrittenWithIt(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            // given a group of a, b and c, and a message of a's
            let (sink, outbox) = try outboxSink(store)
            let notices = ChangeNotices<EditedMessage>(
                sink: sink, notices: { MessageEvents.editedNotices($0, sender: "Ann") },
                events: { MessageEvents.editedEvents($0) })
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let message = try await send(store, "a", "g", "lunch?").message.id
            // when b tries to edit it, then a edits it to mention b
            await #expect(throws: MessagingError.notYourMessage(action: "edit")) {
                _ = try await store.edit(
                    message, in: "g", by: "b", text: "@b", mentions: ["b"], now: now + 60, notices: notices)
            }
            #expect(try await outbox.waitingEntries().isEmpty)
            _ = try await store.edit(
                message, in: "g", by: "a", text: "lunch, @b?", mentions: ["b"], now: now + 60, notices: notices)
            // then b's mention notice and the members' live event wait, in that order
            #expect(
                try await waiting(outbox) == [
                    Posted(recipientIds: ["b"], kind: "messaging.mention"),
                    Posted(recipientIds: ["a", "b", "c"], type: "message.edited"),
                ])
        }
    }

    @Test(arguments: StoreKind.allCases) func aDeletionsEventIsWrittenWithIt(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // given a group of a, b and c, and a message of a's
            let (sink, outbox) = try outboxSink(store)
            let notices = ChangeNotices<DeletedMessage>(
                sink: sink, notices: { _ in [] }, events: { MessageEvents.deletedEvents($0) })
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let message = try await send(store, "a", "g", "lunch?").message.id
            // when b tries to delete it, a deletes it, and a deletes it again
            await #expect(throws: MessagingError.notYourMessage(action: "delete")) {
                _ = try await store.delete(message, in: "g", by: "b", notices: notices)
            }
            #expect(try await outbox.waitingEntries().isEmpty)
            _ = try await store.delete(message, in: "g", by: "a", notices: notices)
            await #expect(throws: MessagingError.notFound("The message")) {
                _ = try await store.delete(message, in: "g", by: "a", notices: notices)
            }
            // then the members' one live event waits
            #expect(try await waiting(outbox) == [Posted(recipientIds: ["a", "b", "c"], type: "message.deleted")])
        }
    }

    @Test(arguments: StoreKind.allCases) func aReactionsEventIsWrittenWithItOnlyWhenItChanges(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            // given a group of a, b and c, and a message of a's
            let (sink, outbox) = try outboxSink(store)
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let message = try await send(store, "a", "g", "lunch?").message.id
            func react(_ userID: String, adding: Bool, to messageID: Int64? = nil) async throws {
                let reaction = MessageEvents.Reaction(
                    conversationId: "g", messageId: message, emoji: "👍", userId: userID)
                let notices = ChangeNotices<ReactionChange>(
                    sink: sink, notices: { _ in [] },
                    events: { MessageEvents.reactedEvents(reaction, added: adding, $0) })
                _ = try await store.react(
                    "👍", to: messageID ?? message, in: "g", by: userID, adding: adding, now: now, notices: notices)
            }
            // when x (no member) tries to react, b reacts to a message that is not there, then b gives a thumbs-up
            // twice and takes it back twice
            await #expect(throws: MessagingError.notFound("The conversation")) { try await react("x", adding: true) }
            await #expect(throws: MessagingError.notFound("The message")) {
                try await react("b", adding: true, to: message + 100)
            }
            #expect(try await outbox.waitingEntries().isEmpty)
            for adding in [true, true, false, false] { try await react("b", adding: adding) }
            // then one live event waits for each change
            #expect(
                try await waiting(outbox) == [
                    Posted(recipientIds: ["a", "b", "c"], type: "reaction.added"),
                    Posted(recipientIds: ["a", "b", "c"], type: "reaction.removed"),
                ])
        }
    }

    @Test(arguments: StoreKind.allCases) func aRemovalsNoticeAndEventAreWrittenWithIt(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // given a direct chat of a and b, and b's report of a message of a's
            let (sink, outbox) = try outboxSink(store)
            let notices = ChangeNotices<DeletedMessage>(
                sink: sink, notices: { MessageEvents.removedNotices($0) },
                events: { MessageEvents.deletedEvents($0) })
            _ = try await store.openDirect("a", with: "b", id: "d", now: now)
            let message = try await send(store, "a", "d", "go away").message.id
            let unreported = try await send(store, "a", "d", "sorry").message.id
            _ = try await report(store, message, by: "b", in: "d")
            // when an admin removes a message nobody reported, then the reported one, then that one again
            func remove(_ id: Int64) async throws {
                _ = try await store.decideMessageReports(on: id, .remove, by: "admin", now: now, notices: notices)
            }
            let noReport = MessagingError.notFound("An open report of this message")
            await #expect(throws: noReport) { try await remove(unreported) }
            try await remove(message)
            await #expect(throws: noReport) { try await remove(message) }
            // then a's notice and the members' live event wait, for the one removal made
            #expect(
                try await waiting(outbox) == [
                    Posted(recipientIds: ["a"], kind: "messaging.message_removed"),
                    Posted(recipientIds: ["a", "b"], type: "message.deleted"),
                ])
        }
    }
}

extension MessagingStoreTests {
    @Test(arguments: StoreKind.allCases) func aGroupsAddedToGroupNoticesAreWrittenWithItsMembers(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            // given the outbox as the sink
            let (sink, outbox) = try outboxSink(store)
            // when a creates a group with b, an outsider tries to add d, a adds c and d, then b again
            _ = try await store.createGroup(
                id: "g", name: "G", by: "a", members: ["b"], product: .wegroup, now: now,
                notices: ChangeNotices(sink: sink) { [GroupNotices.created($0, members: ["b"])] })
            let adding = ChangeNotices<AddedMembers>(sink: sink) { GroupNotices.added($0, to: "g") }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                _ = try await store.addMembers(["d"], to: "g", by: "x", now: now, notices: adding)
            }
            _ = try await store.addMembers(["c", "d"], to: "g", by: "a", now: now, notices: adding)
            _ = try await store.addMembers(["b"], to: "g", by: "a", now: now, notices: adding)
            // then b's notice and c's and d's wait, nothing for the refused or empty additions
            #expect(
                try await waiting(outbox) == [
                    Posted(recipientIds: ["b"], kind: "messaging.added_to_group"),
                    Posted(recipientIds: ["c", "d"], kind: "messaging.added_to_group"),
                ])
        }
    }
}
