import Foundation
import Logging
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

@testable import SocialService

/// What differs between SQLite and PostgreSQL, held to one answer: case folding in the friend search, pages and
/// their cursors, and the invariants concurrent writers must keep (on PostgreSQL, writers on two replicas).
@Suite struct SocialStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000.123)

    /// The friend search folds ASCII letters only, as SQLite's LIKE does, and takes `%` and `_` literally.
    @Test(arguments: StoreKind.allCases)
    func theFriendSearchFoldsASCIICaseOnly(kind: StoreKind) async throws {
        try await withSocialStores(kind) { stores in
            // given friends with names in several cases, one with a wildcard in it
            let store = stores[0]
            let people = [
                ("u1", "ANNA", "Anna Smith"), ("u2", "bob", "Élodie"), ("u3", "carl", "élodie"),
                ("u4", "dan_50%", "Dan"), ("u5", "dana", "Dana"),
            ]
            try await store.save(
                people.map {
                    ProfileRecord(userId: $0.0, username: $0.1, displayName: $0.2, avatarUrl: nil, fetchedAt: now)
                })
            try await insertFriendships(people.map { ("me", $0.0) }, at: now, into: store)
            func search(_ keyword: String) async throws -> [String] {
                try await store.friends(of: "me", matching: keyword, after: nil, limit: 10).map(\.userId)
            }
            // then
            #expect(try await search("anna") == ["u1"])
            #expect(try await search("SMITH") == ["u1"])
            #expect(try await search("élodie") == ["u3"])
            #expect(try await search("ÉLODIE") == ["u2"])
            #expect(try await search("LODIE") == ["u2", "u3"])
            #expect(try await search("_5") == ["u4"])
            #expect(try await search("n%") == [])
            #expect(try await search("DAN") == ["u4", "u5"])
            if kind == .postgres {
                // A search or id PostgreSQL's text cannot hold (a NUL) finds nothing, never an error.
                #expect(try await search("a\u{0}") == [])
                #expect(try await store.friends(of: "me\u{0}", matching: nil, after: nil, limit: 10).isEmpty)
            }
        }
    }

    /// With the outbox, a friend request's notice is written in the request's own transaction: a request stored has
    /// its notice waiting, a refused one leaves none.
    @Test(arguments: StoreKind.allCases)
    func aFriendRequestsNoticeIsWrittenWithIt(kind: StoreKind) async throws {
        try await withSocialStores(kind) { stores in
            // given the store's outbox as the service's notice sink
            let store = stores[0]
            let outbox = try #require(store.outbox)
            let sink = OutboxNoticeSink.undelivered(outbox, producer: .social)
            let notices = SocialNotices(sink: sink)
            // when a request is sent, and sent again (refused: it is pending)
            let sent = try await store.sendFriendRequest(
                from: "ann", to: "bob", now: now, notices: notices.friendRequest(to: "bob", from: "Ann"))
            await #expect(throws: SocialError.self) {
                try await store.sendFriendRequest(
                    from: "ann", to: "bob", now: now, notices: notices.friendRequest(to: "bob", from: "Ann"))
            }
            // then one notice waits, keyed by the request
            guard case .sent(let request) = sent else { throw SocialError.notFound("the request") }
            #expect(try await outbox.waitingEntries().map(\.message.idempotencyKey) == ["friend-request:\(request.id)"])
        }
    }

    /// Blocks page newest first, then by id, through their cursors; pending requests likewise by their ids.
    @Test(arguments: StoreKind.allCases)
    func blocksAndRequestsPageNewestFirstWithTiesByID(kind: StoreKind) async throws {
        try await withSocialStores(kind) { stores in
            let store = stores[0]
            // given blocks and requests made in two instants, several in the same one
            for (index, other) in ["b3", "b1", "b4", "b2"].enumerated() {
                try await store.block("me", other, now: now.addingTimeInterval(index < 2 ? 0 : 1))
                _ = try await store.sendFriendRequest(
                    from: "r\(index)", to: "me", now: now.addingTimeInterval(index < 2 ? 0 : 1))
            }
            // when paged two at a time
            var blocked: [String] = []
            var cursor: [String]?
            repeat {
                let rows = try await store.blockedIDs(by: "me", after: cursor, limit: 2)
                blocked += rows.map(\.id)
                cursor = rows.count == 2 ? rows.last?.key : nil
            } while cursor != nil
            var requests: [FriendRequestRecord] = []
            var after: String?
            repeat {
                let rows = try await store.pendingRequests(of: "me", incoming: true, after: after, limit: 2)
                requests += rows
                after = rows.count == 2 ? rows.last?.id : nil
            } while after != nil
            // then newest first, ties by id (descending)
            #expect(blocked == ["b4", "b2", "b3", "b1"])
            let expected = requests.sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
            #expect(requests.map(\.id) == expected.map(\.id) && requests.count == 4)
            // Instants kept to the millisecond on both engines.
            #expect(
                Set(requests.map { ($0.createdAt.timeIntervalSince1970 * 1000).rounded() })
                    == [1_795_000_000_123, 1_795_000_001_123])
            // A cursor that names nothing of mine is refused.
            await #expect(throws: Problem.self) {
                _ = try await store.pendingRequests(of: "me", incoming: true, after: "nope", limit: 2)
            }
        }
    }

    /// Two users asking each other at the same moment, through two replicas: one request is sent, the other accepts
    /// it, and they are friends once (on PostgreSQL the second would otherwise break the one-pending-request index).
    @Test(arguments: StoreKind.allCases)
    func requestsBothWaysAtOnceMakeFriendsOnce(kind: StoreKind) async throws {
        try await withSocialStores(kind, replicas: 2) { stores in
            let pairs = (0..<12).map { ("a\($0)", "b\($0)") }
            // when both of each pair send at once
            let outcomes = try await withThrowingTaskGroup(of: (Bool, Bool).self) { group in
                for (a, b) in pairs {
                    for (index, (from, to)) in [(a, b), (b, a)].enumerated() {
                        group.addTask {
                            switch try await stores[index].sendFriendRequest(from: from, to: to, now: now) {
                            case .sent: (true, false)
                            case .becameFriends: (false, true)
                            }
                        }
                    }
                }
                return try await group.reduce(into: [(Bool, Bool)]()) { $0.append($1) }
            }
            // then every pair is one request sent and one accepted
            #expect(outcomes.filter(\.0).count == pairs.count && outcomes.filter(\.1).count == pairs.count)
            for (a, b) in pairs {
                let relationship = try await stores[1].relationship(a, b)
                #expect(relationship.friends && !relationship.friendRequestSent && !relationship.friendRequestReceived)
            }
        }
    }

    /// Writers on two replicas change friendships and blocks at once while a reader follows the feed in small pages:
    /// the reader meets every change. (With sequence numbers handed out before commit, a change could commit after
    /// the reader had moved past its number, and be skipped for good.)
    @Test(arguments: StoreKind.allCases)
    func aReaderFollowingTheFeedMissesNoChangeOfConcurrentWriters(kind: StoreKind) async throws {
        try await withSocialStores(kind, replicas: 2) { stores in
            let start = try await stores[0].relationshipChanges(after: nil, limit: 10).last
            let writers = 8
            let rounds = 15
            let done = Flag()
            // when writers block their own pairs through both replicas while a reader follows the feed
            let followed = try await withThrowingTaskGroup(of: Set<String>.self) { group in
                group.addTask {
                    var seen = Set<String>()
                    var last = start
                    while true {
                        let finished = done.isSet
                        let page = try await stores[1].relationshipChanges(after: last, limit: 7)
                        #expect(!page.reset)
                        seen.formUnion(page.users)
                        last = page.last
                        if page.users.isEmpty {
                            if finished { return seen }
                            try await Task.sleep(for: .milliseconds(1))
                        }
                    }
                }
                for writer in 0..<writers {
                    group.addTask {
                        for round in 0..<rounds {
                            let store = stores[(writer + round) % 2]
                            try await store.block("w\(writer)-\(round)", "x\(writer)-\(round)", now: now)
                        }
                        return []
                    }
                }
                var writersDone = 0
                var seen = Set<String>()
                while let result = try await group.next() {
                    seen.formUnion(result)
                    writersDone += 1
                    if writersDone == writers { done.set() }
                }
                return seen
            }
            // then every user of every change was seen
            let expected = Set(
                (0..<writers).flatMap { writer in
                    (0..<rounds).flatMap { ["w\(writer)-\($0)", "x\(writer)-\($0)"] }
                })
            let missed = expected.subtracting(followed)
            #expect(missed.isEmpty, "missed \(missed.count): \(missed.sorted())")
            #expect(followed.isSubset(of: expected))
        }
    }

    /// The feed keeps the latest 10,000 changes; a reader further behind is told to start again.
    @Test(arguments: StoreKind.allCases)
    func aReaderBehindThePrunedChangesStartsAgain(kind: StoreKind) async throws {
        try await withSocialStores(kind) { stores in
            let store = stores[0]
            // 5,001 friendships: 10,002 changes, past the 10,000 kept.
            try await insertFriendships((0...5_000).map { ("a\($0)", "b\($0)") }, at: now, into: store)
            let behind = try await store.relationshipChanges(after: 0, limit: 1000)
            #expect(behind.reset && behind.last == 10_002 && behind.users.isEmpty)
            let kept = try await store.relationshipChanges(after: 2, limit: 1000)
            #expect(!kept.reset && kept.users.first == "a1" && kept.users.count == 1000 && kept.last == 1002)
            let latest = try await store.relationshipChanges(after: 10_000, limit: 1000)
            #expect(latest.users == ["a5000", "b5000"] && latest.last == 10_002)
            #expect(try await keptChanges(store) == 10_000)
        }
    }

    /// On PostgreSQL the bell is rung by the listener every replica runs: a change committed through one replica's
    /// store rings the other's bell; a follow notifies no one.
    @Test func aChangeThroughOneReplicaRingsTheOthersBell() async throws {
        try await withSocialStores(.postgres, replicas: 2) { stores in
            let first = try #require(stores[0] as? PostgresSocialStore)
            let bell = ChangeBell()
            let listener = try #require(stores[1].ringOnRelationshipChanges(bell))
            // Beside the replica's listener, one that keeps every payload: notices arrive in commit order, so what
            // comes between two markers of the test's own is what the writes between them sent.
            let payloads = Mutex<[String]>([])
            let recorder = PostgresChangeListener(database: first.database, channel: PostgresSocialStore.changesChannel)
            { payload in if let payload { payloads.withLock { $0.append(payload) } } }
            func mark(_ marker: String) async throws {
                try await first.database.read { db in
                    try await db.notify(PostgresSocialStore.changesChannel, payload: marker)
                }
            }
            func sent(between start: String, and end: String) -> [String] {
                payloads.withLock { all in Array(all.drop { $0 != start }.dropFirst().prefix { $0 != end }) }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await listener.run() }
                group.addTask { try await recorder.run() }
                defer { group.cancelAll() }
                // Both listen once a marker sent now reaches them.
                #expect(
                    try await eventually {
                        try await mark("ready")
                        return bell.generation > 0 && payloads.withLock { $0.contains("ready") }
                    })
                try await mark("before-follow")
                _ = try await stores[0].follow("a", "b", now: now)
                try await mark("after-follow")
                #expect(try await eventually { payloads.withLock { $0.contains("after-follow") } })
                #expect(sent(between: "before-follow", and: "after-follow") == [], "a follow is no relationship change")
                #expect(try await stores[1].relationshipChanges(after: 0, limit: 10).users.isEmpty)
                let before = bell.generation
                try await stores[0].block("a", "b", now: now)
                try await mark("after-block")
                #expect(try await eventually { payloads.withLock { $0.contains("after-block") } })
                #expect(!sent(between: "after-follow", and: "after-block").isEmpty)
                #expect(try await eventually { bell.generation > before })
                #expect(try await stores[1].relationshipChanges(after: 0, limit: 10).users.sorted() == ["a", "b"])
            }
        }
    }
}

/// Set once, read by another task.
private final class Flag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
