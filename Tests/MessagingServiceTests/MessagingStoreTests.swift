import Foundation
import Logging
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import MessagingService

/// The invariants the store guards, on a fresh database of each kind per test (SQLite and PostgreSQL must answer
/// the same).
@Suite struct MessagingStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Runs `body` with a store on a fresh database of `kind`, its services running.
    func withStore(_ kind: StoreKind, _ body: (any MessagingStore) async throws -> Void) async throws {
        let store = try await openMessagingStore(try await kind.freshLocation(), logger: Logger(label: "test"))
        try await withRunning(store) { try await body(store) }
    }

    func send(
        _ store: any MessagingStore, _ sender: String, _ conversation: String, _ text: String, topic: String? = nil,
        key: String? = nil
    ) async throws -> SentMessage {
        try await store.send(
            NewMessage(
                conversationID: conversation, senderID: sender, text: text, topicID: nil, topicName: topic,
                mentions: [], idempotencyKey: key, now: now))
    }

    @Test(arguments: StoreKind.allCases) func aPairHasOneDirectConversationWhoeverOpensIt(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            let (first, created) = try await store.openDirect("a", with: "b", id: "c1", now: now)
            let (second, createdAgain) = try await store.openDirect("b", with: "a", id: "c2", now: now)
            #expect(created && !createdAgain)
            #expect(first.id == second.id)
        }
    }

    @Test(arguments: StoreKind.allCases) func anIdempotencyKeyStoresOneMessagePerSender(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.openDirect("a", with: "b", id: "c", now: now)
            let first = try await send(store, "a", "c", "hello", key: "k")
            let again = try await send(store, "a", "c", "hello again", key: "k")
            let other = try await send(store, "b", "c", "hello", key: "k")
            #expect(first.created && !again.created && other.created)
            #expect(again.message.id == first.message.id && again.message.text == "hello")
        }
    }

    /// With the outbox, a new message's notice and live event are written in the message's own transaction: once for
    /// the message, not again for a retry with the same key, and not at all for a send refused (an outsider's).
    @Test(arguments: StoreKind.allCases) func aMessagesNoticeAndEventAreWrittenWithIt(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            // given the store's outbox as the service's notice sink, and a direct conversation of a and b
            let outbox = try #require(store.outbox)
            let notices = ChangeNotices<SentMessage>(
                sink: OutboxNoticeSink.undelivered(outbox, producer: .messaging),
                notices: { MessageEvents.createdNotices($0, sender: "Ann") },
                events: { MessageEvents.createdEvents($0) })
            _ = try await store.openDirect("a", with: "b", id: "c", now: now)
            // when a sends a message, retries it with its key, and x (no member) tries one
            for _ in 0..<2 {
                _ = try await store.send(
                    NewMessage(
                        conversationID: "c", senderID: "a", text: "hello", topicID: nil, topicName: nil,
                        mentions: [], idempotencyKey: "k", now: now),
                    notices: notices)
            }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                _ = try await store.send(
                    NewMessage(
                        conversationID: "c", senderID: "x", text: "hi", topicID: nil, topicName: nil, mentions: [],
                        idempotencyKey: nil, now: now),
                    notices: notices)
            }
            // then b's notice and the members' live event wait, in that order, for the one message made
            let entries = try await outbox.waitingEntries()
            #expect(entries.map(\.message.kind) == [.notice, .event])
            let bodies = entries.map { String(decoding: $0.message.body, as: UTF8.self) }
            #expect(bodies.first?.contains("messaging.message") == true, "\(bodies)")
            #expect(bodies.last?.contains("message.created") == true, "\(bodies)")
        }
    }

    @Test(arguments: StoreKind.allCases) func outsidersGetNotFound(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.openDirect("a", with: "b", id: "c", now: now)
            await #expect(throws: MessagingError.notFound("The conversation")) { try await send(store, "x", "c", "hi") }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.messages(in: "c", topic: nil, asMember: "x", anchor: .newest, limit: 10)
            }
        }
    }

    /// PostgreSQL's text holds no NUL, so an id with one names no conversation: not found, not a failed query (SQLite
    /// compares such an id up to its NUL).
    @Test func anIdWithANulIsNotFoundOnPostgres() async throws {
        try await withStore(.postgres) { store in
            _ = try await store.openDirect("a", with: "b", id: "c", now: now)
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.search(
                    try SearchQuery.terms("hi"), for: "a", conversation: "c\u{0}", topic: nil, offset: 0, limit: 10)
            }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.revision(of: "c\u{0}", topic: nil, asMember: "a")
            }
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.memberIDs(of: "c", viewer: "a\u{0}")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func readMarkersOnlyMoveForwardAndMutedTopicsLeaveTheTotal(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let first = try await send(store, "a", "g", "one", topic: "loud")
            let quiet = try await send(store, "a", "g", "two", topic: "quiet")
            let third = try await send(store, "a", "g", "three")
            let quietTopic = try #require(quiet.message.topicId)
            try await store.setTopicPolicy(.muted, topic: quietTopic, in: "g", for: "b")
            let (marker, unread) = try await store.markRead("g", upTo: first.message.id, topic: nil, by: "b")
            #expect(marker == first.message.id)
            #expect(unread.total == 1, "the muted topic's message is not counted")
            #expect(unread.byTopic[quietTopic] == 1)
            let (_, after) = try await store.markRead("g", upTo: third.message.id, topic: nil, by: "b")
            #expect(after.total == 0 && after.byTopic.isEmpty)
            let (back, _) = try await store.markRead("g", upTo: first.message.id, topic: nil, by: "b")
            #expect(back == third.message.id, "a marker never moves back")
            let (topicMarker, _) = try await store.markRead("g", upTo: quiet.message.id, topic: quietTopic, by: "c")
            #expect(topicMarker == quiet.message.id)
            let counts = try await store.unreadCounts(of: "c")
            #expect(counts.map(\.conversationID) == ["g"] && counts.first?.unread.total == 2)
        }
    }

    @Test(arguments: StoreKind.allCases) func theLastAdminLeavingHandsTheGroupOn(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b", "c"], now: now)
            let remaining = try await store.removeMember("a", from: "g", by: "a")
            #expect(remaining == ["b", "c"])
            let (_, members) = try await store.conversation("g", asMember: "b")
            #expect(members.filter(\.isAdmin).map(\.userId) == ["b"])
        }
    }

    // MARK: Where the engines differ

    /// FTS5 in SQLite, a tsvector in PostgreSQL: the same words, prefixes and case-insensitivity, only the caller's
    /// conversations, one topic when asked, the matches marked in the snippet.
    @Test(arguments: StoreKind.allCases) func searchFindsWordsAndPrefixesInTheCallersConversations(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            _ = try await store.createGroup(id: "h", name: "H", by: "c", members: [], now: now)
            let pizza = try await send(store, "a", "g", "Pizza <tonight> at eight", topic: "food")
            let pizzeria = try await send(store, "b", "g", "the pizzeria closed")
            _ = try await send(store, "c", "h", "pizza for c only")
            func ids(_ query: String, topic: Int64? = nil) async throws -> [Int64] {
                try await store.search(
                    try SearchQuery.terms(query), for: "b", conversation: nil, topic: topic, offset: 0, limit: 10
                ).map(\.message.id)
            }
            #expect(try await ids("PIZZA") == [pizza.message.id])
            #expect(try await ids("pizz*") == [pizzeria.message.id, pizza.message.id])
            #expect(try await ids("pizz") == [])
            #expect(try await ids("pizza eight") == [pizza.message.id])
            #expect(try await ids("pizz*", topic: pizza.message.topicId) == [pizza.message.id])
            // Punctuation separates words as FTS5's tokenizer has it (PostgreSQL's parser alone would keep an
            // address, a host or a `<tag>` whole).
            let address = try await send(store, "a", "g", "write to bob@example.com or see <tonight>")
            #expect(try await ids("example") == [address.message.id])
            #expect(Set(try await ids("tonight")) == [address.message.id, pizza.message.id])
            let hit = try #require(
                try await store.search(
                    try SearchQuery.terms("pizza"), for: "a", conversation: "g", topic: nil, offset: 0, limit: 10
                ).first)
            #expect(hit.snippet.contains("\u{E000}Pizza\u{E001} <tonight>"), "\(hit.snippet)")
            await #expect(throws: MessagingError.notFound("The conversation")) {
                try await store.search(
                    try SearchQuery.terms("pizza"), for: "a", conversation: "h", topic: nil, offset: 0, limit: 10)
            }
        }
    }

    /// SQLite's `NOCASE` folds A-Z only: "Plans" and "plans" clash, "Ärger" and "ärger" do not.
    @Test(arguments: StoreKind.allCases) func topicNamesAreUniqueASCIICaseInsensitively(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            let plans = try await store.createTopic("Plans", in: "g", by: "a", now: now)
            await #expect(throws: MessagingError.topicExists("Plans")) {
                try await store.createTopic("plans", in: "g", by: "b", now: now)
            }
            let tagged = try await send(store, "b", "g", "see you", topic: "PLANS")
            #expect(tagged.message.topicId == plans.topic.id && tagged.message.topicName == "Plans")
            let upper = try await store.createTopic("Ärger", in: "g", by: "a", now: now)
            let lower = try await store.createTopic("ärger", in: "g", by: "a", now: now)
            #expect(upper.topic.id != lower.topic.id)
            let other = try await store.createTopic("Other", in: "g", by: "a", now: now)
            await #expect(throws: MessagingError.topicExists("Plans")) {
                try await store.updateTopic(
                    try #require(other.topic.id), in: "g", by: "a", name: "pLANS", resolved: nil)
            }
        }
    }

    /// The revision the kept latest pages are served under moves with every change to what a page shows (a post,
    /// an edit, a delete, a topic's rename) and not with what it does not show (a mute, a read marker).
    @Test(arguments: StoreKind.allCases) func theRevisionMovesWithEveryChangeToAPage(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            _ = try await store.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
            func revision() async throws -> Int64 { try await store.revision(of: "g", topic: nil, asMember: "b") }
            var seen = [try await revision()]
            let sent = try await send(store, "a", "g", "one", topic: "t")
            seen.append(try await revision())
            _ = try await store.edit(sent.message.id, in: "g", by: "a", text: "uno", mentions: [], now: now)
            seen.append(try await revision())
            try await store.updateTopic(try #require(sent.message.topicId), in: "g", by: "b", name: "T2", resolved: nil)
            seen.append(try await revision())
            try await store.setMuted(true, conversation: "g", for: "b")
            _ = try await store.markRead("g", upTo: sent.message.id, topic: nil, by: "b")
            #expect(try await revision() == seen.last)
            _ = try await store.delete(sent.message.id, in: "g", by: "a")
            seen.append(try await revision())
            #expect(seen == seen.sorted() && Set(seen).count == seen.count, "\(seen)")
            let page = try await store.messages(in: "g", topic: nil, asMember: "b", anchor: .newest, limit: 10)
            #expect(page.revision == seen.last && page.messages.isEmpty)
        }
    }

    /// Conversation lists page by `(activity, id)` with ids compared bytewise (SQLite's BINARY), whatever the
    /// server's collation: "B" sorts before "a".
    @Test(arguments: StoreKind.allCases) func conversationListsPageByActivityThenIdBytewise(kind: StoreKind)
        async throws
    {
        try await withStore(kind) { store in
            for id in ["a", "B", "c"] {
                _ = try await store.createGroup(id: id, name: id, by: "u", members: [], now: now)
            }
            let first = try await store.conversations(of: "u", after: nil, limit: 2).map(\.conversation.id)
            #expect(first == ["c", "a"])
            let last = try #require(try await store.conversations(of: "u", after: nil, limit: 2).last)
            let rest = try await store.conversations(
                of: "u", after: (last.conversation.activity, last.conversation.id), limit: 2
            ).map(\.conversation.id)
            #expect(rest == ["B"])
        }
    }

    /// Two replicas posting into one conversation at once: every message gets its own id, and paging forward
    /// from the oldest by cursor meets each exactly once, in id order.
    @Test(arguments: StoreKind.allCases) func concurrentSendersGetDistinctOrderedMessages(kind: StoreKind) async throws
    {
        let location = try await kind.freshLocation()
        let logger = Logger(label: "test")
        let first = try await openMessagingStore(location, logger: logger)
        // SQLite has one writer per file; PostgreSQL gets a second replica on the same database.
        let second = kind == .postgres ? try await openMessagingStore(location, logger: logger) : first
        try await withRunning(first) {
            try await withRunning(second) {
                _ = try await first.createGroup(id: "g", name: "G", by: "a", members: ["b"], now: now)
                let sent = try await withThrowingTaskGroup(of: Int64.self) { group in
                    for index in 0..<40 {
                        let store = index.isMultiple(of: 2) ? first : second
                        let sender = index.isMultiple(of: 2) ? "a" : "b"
                        group.addTask { try await send(store, sender, "g", "message \(index)").message.id }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(Set(sent).count == 40)
                var paged: [Int64] = []
                var anchor = MessageAnchor.oldest
                while true {
                    let page = try await second.messages(in: "g", topic: nil, asMember: "a", anchor: anchor, limit: 7)
                    paged += page.messages.map(\.id)
                    guard !page.foundNewest, let last = page.messages.last else { break }
                    anchor = .after(last.id)
                }
                #expect(paged == sent.sorted())
            }
        }
    }

    /// Two admins leaving a group at once on two replicas: the one who remains becomes its admin (one writer
    /// decides at a time, as SQLite's single writer does).
    @Test(arguments: StoreKind.allCases) func twoAdminsLeavingAtOnceLeaveAnAdmin(kind: StoreKind) async throws {
        let location = try await kind.freshLocation()
        let logger = Logger(label: "test")
        let first = try await openMessagingStore(location, logger: logger)
        let second = kind == .postgres ? try await openMessagingStore(location, logger: logger) : first
        try await withRunning(first) {
            try await withRunning(second) {
                for round in 0..<10 {
                    let id = "g\(round)"
                    _ = try await first.createGroup(id: id, name: "G", by: "a", members: ["b", "c"], now: now)
                    try await first.setRole("admin", of: "b", in: id, by: "a")
                    async let left: [String] = first.removeMember("a", from: id, by: "a")
                    async let right: [String] = second.removeMember("b", from: id, by: "b")
                    _ = try await (left, right)
                    let (_, members) = try await first.conversation(id, asMember: "c")
                    #expect(members.map(\.userId) == ["c"] && members.allSatisfy(\.isAdmin), "round \(round)")
                }
            }
        }
    }
}
