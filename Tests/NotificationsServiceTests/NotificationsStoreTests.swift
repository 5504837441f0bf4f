import Foundation
import Logging
import PostgresNIO
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import NotificationsService

/// One replica of the service's storage in a store test: its store and the hub its stored events reach.
struct StoreReplica: Sendable {
    let store: any NotificationsStore
    let hub: EventHub
}

/// Runs `body` with `replicas` stores on one fresh database of `kind`, each with its own hub and its services running
/// (SQLite has one process: every "replica" is the same store), once each replica's feed hears the others.
func withNotificationsStores<T: Sendable>(
    _ kind: StoreKind, replicas: Int = 1, _ body: ([StoreReplica]) async throws -> T
) async throws -> T {
    let location = try await kind.freshLocation()
    var opened: [StoreReplica] = []
    for _ in 0..<(kind == .sqlite ? 1 : replicas) {
        let hub = EventHub()
        opened.append(
            StoreReplica(
                store: try await openNotificationsStore(
                    location, hub: hub, logger: Logger(label: "test.notifications")),
                hub: hub))
    }
    let all = opened
    func running(_ index: Int) async throws -> T {
        guard index < all.count else {
            try await waitUntilListening(all)
            return try await body((0..<replicas).map { all[$0 % all.count] })
        }
        return try await withRunning(all[index].store) { try await running(index + 1) }
    }
    return try await running(0)
}

/// Waits until an event stored through the first replica reaches every replica's hub: their listeners are listening.
/// Each try subscribes afresh: a listener coming into place closes the streams it had not served yet (their clients
/// resume with `Last-Event-ID`), so a probe subscribed before that hears nothing.
private func waitUntilListening(_ replicas: [StoreReplica]) async throws {
    let heard = try await eventually {
        let probes = replicas.map { collect($0.hub.subscribe("probe", session: "probe")) }
        defer { for replica in replicas { replica.hub.disconnect(["probe"]) } }
        try await replicas[0].store.append(
            IncomingEvent(recipientIDs: ["probe"], type: "probe", payload: "{}"), now: Date())
        try await Task.sleep(for: .milliseconds(50))
        return probes.allSatisfy { !$0.seqs.isEmpty }
    }
    #expect(heard, "the replicas' feeds never heard the first replica")
}

/// What one hub connection received, collected as it arrives.
final class Collected: Sendable {
    let items = Mutex<[EventHub.Item]>([])
    let finished = Mutex(false)

    /// The sequence numbers of the events received, in order.
    var seqs: [Int64] {
        items.withLock { $0.compactMap { if case .event(let event) = $0 { event.seq } else { nil } } }
    }

    var ends: [StreamEnd] {
        items.withLock { $0.compactMap { if case .ended(let end) = $0 { end } else { nil } } }
    }
}

func collect(_ subscription: EventHub.Subscription) -> Collected {
    let collected = Collected()
    Task {
        for await item in subscription.items { collected.items.withLock { $0.append(item) } }
        collected.finished.withLock { $0 = true }
    }
    return collected
}

/// The instant in whole microseconds (what PostgreSQL keeps; SQLite keeps milliseconds).
func microseconds(_ date: Date?) -> Int64? {
    date.map { Int64(($0.timeIntervalSince1970 * 1_000_000).rounded()) }
}

/// The answers and invariants of the store, on a fresh database of each kind per test (SQLite and PostgreSQL must
/// answer the same); on PostgreSQL, concurrent writers run on two replicas of one database.
@Suite struct NotificationsStoreTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000.123_456)

    func notice(_ recipients: [String], key: String = UUID().uuidString, kind: String = "household.chore_completed")
        -> IncomingNotice
    {
        IncomingNotice(
            recipientIDs: recipients, kind: kind, text: "Sam took out the trash", link: "/v1/households/h/chores",
            producer: "household", idempotencyKey: key)
    }

    /// A producer's batch is stored in order in one transaction: each entry's outcome in order, a notice or an event
    /// already taken (earlier or within the batch) adds nothing, and the stream holds the rest in the batch's order.
    @Test(arguments: StoreKind.allCases)
    func aBatchOfDeliveriesIsStoredInOrder(kind: StoreKind) async throws {
        try await withNotificationsStores(kind) { replicas in
            let store = replicas[0].store
            let event = IncomingEvent(
                recipientIDs: ["ann"], type: "first", payload: "{}", producer: "messaging", idempotencyKey: "e1")
            var repeated = event
            repeated.type = "repeated"
            let later = IncomingEvent(recipientIDs: ["ann", "bob"], type: "second", payload: #"{"n":2}"#)
            let outcomes = try await store.accept(
                [
                    .notice(notice(["ann", "bob"], key: "n1")), .event(event), .event(repeated), .event(later),
                    .notice(notice(["ann", "cat"], key: "n1")),
                ],
                now: now)
            #expect(
                outcomes.map(Self.summary) == [
                    "notice 2 new 0 repeated", "event", "event dropped", "event",
                    "notice 1 new 1 repeated",
                ])
            let stream = try await store.events(for: "ann", after: 0, limit: 10).events
            #expect(stream.map(\.type) == ["notification.created", "first", "second"])
            #expect(
                try await store.events(for: "bob", after: 0, limit: 10).events.map(\.type) == [
                    "notification.created", "second",
                ])
        }
    }

    private static func summary(_ outcome: DeliveryOutcome) -> String {
        switch outcome {
        case .notice(let created, let duplicates, _): "notice \(created) new \(duplicates) repeated"
        case .event(let accepted): accepted ? "event" : "event dropped"
        }
    }

    /// Newest first, paged by number, unread only, marked read one and all; another user's notice is not found, and
    /// so is an id PostgreSQL's text cannot hold; instants come back at SQLite's millisecond precision.
    @Test(arguments: StoreKind.allCases)
    func theInboxAnswersTheSameOnBothEngines(kind: StoreKind) async throws {
        try await withNotificationsStores(kind) { replicas in
            let store = replicas[0].store
            for index in 0..<4 {
                _ = try await store.deliver(
                    notice(index == 2 ? ["bob"] : ["ann"], key: "k\(index)"), now: now.addingTimeInterval(Double(index))
                )
            }
            let first = try await store.notifications(of: "ann", after: nil, limit: 2, unreadOnly: false)
            #expect(first.map(\.idempotencyKey) == ["k3", "k1"])
            let rest = try await store.notifications(of: "ann", after: first.last?.number, limit: 2, unreadOnly: false)
            #expect(rest.map(\.idempotencyKey) == ["k0"])
            #expect(microseconds(rest[0].createdAt) == 1_800_000_000_123_000)
            #expect(try await store.unreadCount(of: "ann") == 3)

            #expect(try await store.markRead(first[0].id, of: "ann", now: now) == 1)
            #expect(try await store.markRead(first[0].id, of: "ann", now: now) == 0)
            let bobs = try #require(
                try await store.notifications(of: "bob", after: nil, limit: 5, unreadOnly: false).first)
            await #expect(throws: NotificationsError.notFound("notification")) {
                try await store.markRead(bobs.id, of: "ann", now: now)
            }
            await #expect(throws: NotificationsError.notFound("notification")) {
                try await store.delete(bobs.id, of: "ann")
            }
            await #expect(throws: NotificationsError.notFound("notification")) {
                try await store.markRead("n\u{0}", of: "ann", now: now)
            }
            let unread = try await store.notifications(of: "ann", after: nil, limit: 5, unreadOnly: true)
            #expect(unread.map(\.idempotencyKey) == ["k1", "k0"])
            let read = try await store.notifications(of: "ann", after: nil, limit: 1, unreadOnly: false)[0]
            #expect(microseconds(read.readAt) == 1_800_000_000_123_000)
            #expect(try await store.markRead(nil, of: "ann", now: now) == 2)
            #expect(try await store.unreadCount(of: "ann") == 0)
            try await store.delete(first[0].id, of: "ann")
            #expect(try await store.notifications(of: "ann", after: nil, limit: 5, unreadOnly: false).count == 2)
            // Every change to ann's inbox that her other devices must hear is one event, in order.
            let events = try await store.events(for: "ann", after: 0, limit: 10).events
            #expect(
                events.map(\.type) == Array(repeating: "notification.created", count: 3) + [
                    "notification.read", "notification.read",
                ])
            #expect(events.last?.payload == #"{"all":true}"#)
            #expect(events.map(\.seq) == events.map(\.seq).sorted())
        }
    }

    /// Eight posts of one notice at once (on PostgreSQL, four through each of two replicas): each recipient gets it
    /// once, the other posts count as duplicates, and only the post that created it pushes, as preferences allow.
    @Test(arguments: StoreKind.allCases)
    func aNoticePostedAtOnceEverywhereIsStoredAndPushedOnce(kind: StoreKind) async throws {
        try await withNotificationsStores(kind, replicas: 2) { replicas in
            let store = replicas[0].store
            for (token, user) in [("t-ann", "ann"), ("t-bob", "bob")] {
                try await store.register(
                    DeviceRecord(
                        token: token, userId: user, sessionId: "s-\(user)", environment: "sandbox", createdAt: now))
            }
            try await store.save(Preferences(disabledKinds: ["household.chore_completed"]), of: "bob", now: now)
            #expect(try await replicas[1].store.preferences(of: "bob").disabledKinds == ["household.chore_completed"])
            let posted = notice(["ann", "bob", "cat"], key: "chore:1")
            let instant = now
            let answers = try await withThrowingTaskGroup(of: (Int, Int, [String]).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let answer = try await replicas[index % 2].store.deliver(posted, now: instant)
                        return (answer.created, answer.duplicates, answer.pushes.flatMap { $0.devices.map(\.token) })
                    }
                }
                return try await group.reduce(into: [(Int, Int, [String])]()) { $0.append($1) }
            }
            #expect(answers.map(\.0).reduce(0, +) == 3)
            #expect(answers.map(\.1).reduce(0, +) == 21)
            #expect(answers.flatMap(\.2) == ["t-ann"])
            for user in ["ann", "bob", "cat"] {
                #expect(try await replicas[1].store.unreadCount(of: user) == 1)
                #expect(try await store.events(for: user, after: 0, limit: 10).events.count == 1)
            }
        }
    }

    /// One device per session even when a session registers two tokens at once on two replicas; devices list oldest
    /// first; a token is removed only by its owner (or by APNs), and ended sessions take theirs along.
    @Test(arguments: StoreKind.allCases)
    func aSessionKeepsOneDeviceWhateverRegistersAtOnce(kind: StoreKind) async throws {
        try await withNotificationsStores(kind, replicas: 2) { replicas in
            let instant = now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await replicas[index % 2].store.register(
                            DeviceRecord(
                                token: "t\(index)", userId: "ann", sessionId: "phone", environment: "production",
                                createdAt: instant))
                    }
                }
                try await group.waitForAll()
            }
            let store = replicas[0].store
            #expect(try await store.devices(of: "ann").count == 1)
            try await store.register(
                DeviceRecord(
                    token: "tablet", userId: "ann", sessionId: "tablet", environment: "sandbox", createdAt: now - 1))
            let devices = try await store.devices(of: "ann")
            #expect(devices.count == 2 && devices[0].token == "tablet")
            #expect(microseconds(devices[0].createdAt) == 1_799_999_999_123_000)
            #expect(try await store.removeDevice("tablet", of: "bob") == false)
            #expect(try await store.removeDevices(of: "ann", sessions: ["phone", "gone"]) == 1)
            #expect(try await store.removeDevice("tablet", of: nil) == true)
            #expect(try await store.devices(of: "ann").isEmpty)
        }
    }

    /// A realtime event's idempotency key is taken once per producer within the window, whichever replica the retry
    /// reaches (eight at once); after the window the key is new again.
    @Test(arguments: StoreKind.allCases)
    func aRetriedEventIsStoredOnceWhicheverReplicaItReaches(kind: StoreKind) async throws {
        try await withNotificationsStores(kind, replicas: 2) { replicas in
            var event = IncomingEvent(recipientIDs: ["ann", "bob"], type: "message.created", payload: "{}")
            event.producer = "messaging"
            event.idempotencyKey = "message.created:7"
            let (retried, instant) = (event, now)
            let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask { try await replicas[index % 2].store.append(retried, now: instant) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(accepted == 1)
            #expect(try await replicas[1].store.events(for: "ann", after: 0, limit: 10).events.count == 1)
            var other = event
            other.producer = "household"
            #expect(try await replicas[1].store.append(other, now: now))
            #expect(!(try await replicas[0].store.append(event, now: now + RecentEventKeys.defaultWindow - 1)))
            #expect(try await replicas[0].store.append(event, now: now + RecentEventKeys.defaultWindow))
            #expect(try await replicas[1].store.events(for: "bob", after: 0, limit: 10).events.count == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func resumeKnowsWhenEventsWerePruned(kind: StoreKind) async throws {
        try await withNotificationsStores(kind) { replicas in
            let store = replicas[0].store
            let start = Date(timeIntervalSince1970: 1_800_000_000)
            for (offset, user) in ["ann", "bob", "ann"].enumerated() {
                try await store.append(
                    IncomingEvent(recipientIDs: [user], type: "t", payload: #"{"n":\#(offset)}"#),
                    now: start.addingTimeInterval(Double(offset) * 3_600))
            }
            let all = try await store.events(for: "ann", after: 0, limit: 10)
            #expect(all.events.map(\.payload) == [#"{"n":0}"#, #"{"n":2}"#])
            #expect(!all.gap)
            let first = all.events[0].seq
            try await store.pruneEvents(before: start.addingTimeInterval(1_800))
            #expect(try await store.events(for: "ann", after: first - 1, limit: 10).gap)
            let recent = try await store.events(for: "ann", after: first, limit: 10)
            #expect(recent.events.map(\.payload) == [#"{"n":2}"#])
            #expect(!recent.gap)
            // Everything pruned: still a gap for a client from before, none for one that saw the last.
            try await store.pruneEvents(before: start.addingTimeInterval(86_400))
            #expect(try await store.events(for: "ann", after: first, limit: 10).gap)
            #expect(!(try await store.events(for: "ann", after: all.events[1].seq, limit: 10).gap))
            #expect(!(try await store.events(for: "ann", after: .max, limit: 10).gap))
        }
    }

    /// A write that stored an event and rolled back (a failure, or PostgreSQL retrying a transaction) leaves a hole in
    /// PostgreSQL's numbers, not in SQLite's: once the event before the hole is pruned, a client that saw it is not
    /// told to resync (the lowest number left would say so).
    @Test(arguments: StoreKind.allCases)
    func aRolledBackEventIsNoGap(kind: StoreKind) async throws {
        try await withNotificationsStores(kind) { replicas in
            struct Abandoned: Error {}
            let store = replicas[0].store
            let instant = now
            try await store.append(IncomingEvent(recipientIDs: ["ann"], type: "old", payload: "{}"), now: now - 3_600)
            await #expect(throws: Abandoned.self) {
                switch store {
                case let store as PostgresNotificationsStore:
                    try await store.write { session in
                        try await PostgresNotificationsStore.lockStreams(session, of: ["ann"])
                        _ = try await PostgresNotificationsStore.appendEvents(
                            session, [("ann", "t", "{}")], now: instant)
                        throw Abandoned()
                    }
                case let store as SQLiteNotificationsStore:
                    try await store.write { db in
                        _ = try SQLiteNotificationsStore.appendEvent(
                            db, recipient: "ann", type: "t", payload: "{}", now: instant)
                        throw Abandoned()
                    }
                default: Issue.record("an unknown store")
                }
            }
            try await store.append(IncomingEvent(recipientIDs: ["ann"], type: "new", payload: "{}"), now: now)
            let seen = try #require(try await store.events(for: "ann", after: 0, limit: 10).events.first)
            #expect(seen.type == "old")
            try await store.pruneEvents(before: now - 1)
            let resumed = try await store.events(for: "ann", after: seen.seq, limit: 10)
            #expect(resumed.events.map(\.type) == ["new"])
            #expect(!resumed.gap)
        }
    }

    /// A writer of a recipient's events waits for the one before it to commit: numbers are handed out in commit
    /// order, so a stream that was handed 12 never meets an 11 committed later.
    @Test func aRecipientsNumbersFollowCommitOrder() async throws {
        try await withNotificationsStores(.postgres, replicas: 2) { replicas in
            let first = try #require(replicas[0].store as? PostgresNotificationsStore)
            let (locked, holding) = AsyncStream.makeStream(of: Void.self)
            let (release, releasing) = AsyncStream.makeStream(of: Void.self)
            let instant = now
            // given a transaction that has taken ann's stream lock and not committed
            let slow = Task {
                try await first.write { session in
                    try await PostgresNotificationsStore.lockStreams(session, of: ["ann"])
                    holding.yield()
                    for await _ in release { break }
                    return try await PostgresNotificationsStore.appendEvents(
                        session, [("ann", "slow", "{}")], now: instant)[0].seq
                }
            }
            for await _ in locked { break }
            // when another replica appends to ann
            let fast = Task {
                try await replicas[1].store.append(
                    IncomingEvent(recipientIDs: ["ann"], type: "fast", payload: "{}"), now: instant)
            }
            try await Task.sleep(for: .milliseconds(300))
            // then it waits, and gets the next number once the first commits
            #expect(try await replicas[1].store.events(for: "ann", after: 0, limit: 10).events.isEmpty)
            releasing.yield()
            let slowSeq = try await slow.value
            _ = try await fast.value
            let events = try await replicas[1].store.events(for: "ann", after: 0, limit: 10).events
            #expect(events.map(\.type) == ["slow", "fast"])
            #expect(events.first?.seq == slowSeq)
        }
    }

    /// Events written through both replicas at once reach ann's connections on each replica, every one once and in
    /// number order, whichever replica stored it.
    @Test(arguments: StoreKind.allCases)
    func everyEventReachesEveryReplicasStreamsOnceInOrder(kind: StoreKind) async throws {
        try await withNotificationsStores(kind, replicas: 2) { replicas in
            let streams = replicas.map { collect($0.hub.subscribe("ann", session: "s-\(UUID())")) }
            let instant = now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let store = replicas[index % 2].store
                        if index.isMultiple(of: 3) {
                            _ = try await store.deliver(
                                IncomingNotice(
                                    recipientIDs: ["bob", "ann"], kind: "a.b", text: "t", link: "/x", producer: "p",
                                    idempotencyKey: "k\(index)"),
                                now: instant)
                        } else {
                            try await store.append(
                                IncomingEvent(recipientIDs: ["ann", "cat"], type: "t", payload: "{}"), now: instant)
                        }
                    }
                }
                try await group.waitForAll()
            }
            let stored = try await replicas[0].store.events(for: "ann", after: 0, limit: 100).events.map(\.seq)
            #expect(stored.count == 40)
            for stream in streams {
                #expect(try await eventually { stream.seqs.count >= 40 })
                try await Task.sleep(for: .milliseconds(100))
                #expect(stream.seqs == stored)
            }
        }
    }

    /// The sessions identity reports ended on one replica end their streams on the other, after what they hold.
    @Test func endedSessionsEndTheirStreamsOnEveryReplica() async throws {
        try await withNotificationsStores(.postgres, replicas: 2) { replicas in
            let phone = collect(replicas[1].hub.subscribe("ann", session: "phone"))
            let tablet = collect(replicas[1].hub.subscribe("ann", session: "tablet"))
            try await replicas[0].store.append(IncomingEvent(recipientIDs: ["ann"], type: "t", payload: "{}"), now: now)
            #expect(try await replicas[0].store.removeDevices(of: "ann", sessions: ["phone"]) == 0)
            #expect(try await eventually { phone.finished.withLock { $0 } })
            #expect(phone.seqs.count == 1 && phone.ends == [.sessionEnded])
            #expect(tablet.ends.isEmpty && !tablet.finished.withLock { $0 })
            replicas[1].hub.shutDown()
        }
    }
}
