import Logging
import Synchronization
import Testing

@testable import ServiceKit

/// ``KeptSocialGraph`` answers from its copy only while the change feed is live, forgets a user as soon as the
/// feed names them, and never keeps an answer a change may have overtaken.
@Suite struct KeptSocialGraphTests {
    /// ann is friends with bob and blocked dan; counts the calls and can run something in the middle of one.
    final class Source: FriendAndBlockedIDsLookup {
        let calls = Mutex(0)
        let duringCall = Mutex<(@Sendable () -> Void)?>(nil)
        let friends = Mutex<Set<String>>(["bob"])

        func friendAndBlockedIDs(of user: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
            calls.withLock { $0 += 1 }
            let answer = (friends.withLock { $0 }, Set(["dan"]))
            duringCall.withLock { $0 }?()
            return answer
        }
    }

    @Test func answersFromTheCopyOnlyWhileTheFeedIsLive() async throws {
        let source = Source()
        let graph = KeptSocialGraph(source: source)
        // Before the feed starts, every read asks social.
        _ = try await graph.friendIDs(of: "ann")
        _ = try await graph.friendIDs(of: "ann")
        #expect(source.calls.withLock { $0 } == 2 && graph.keptUsers == 0)
        graph.feedStarted()
        _ = try await graph.friendIDs(of: "ann")
        let kept = try await graph.friendAndBlockedIDs(of: "ann")
        #expect(kept.friends == ["bob"] && kept.blocked == ["dan"])
        #expect(source.calls.withLock { $0 } == 3 && graph.keptUsers == 1)
        // The feed fails: the copy is dropped and not used until the feed starts again.
        graph.feedLost()
        _ = try await graph.friendIDs(of: "ann")
        _ = try await graph.friendIDs(of: "ann")
        #expect(source.calls.withLock { $0 } == 5 && graph.keptUsers == 0)
        graph.feedStarted()
        _ = try await graph.friendIDs(of: "ann")
        _ = try await graph.friendIDs(of: "ann")
        #expect(source.calls.withLock { $0 } == 6)
    }

    @Test func aChangeNamedByTheFeedIsReadAgain() async throws {
        let source = Source()
        let graph = KeptSocialGraph(source: source)
        graph.feedStarted()
        #expect(try await graph.friendIDs(of: "ann") == ["bob"])
        _ = try await graph.friendIDs(of: "cat")
        // bob unfriends ann: social's feed names them both.
        source.friends.withLock { $0 = [] }
        graph.relationshipsChanged(of: ["bob", "ann"])
        #expect(try await graph.friendIDs(of: "ann") == [])
        #expect(source.calls.withLock { $0 } == 3)
        // cat was not named: still kept (and still bob's old answer, as social gave it).
        #expect(try await graph.friendIDs(of: "cat") == ["bob"])
        #expect(source.calls.withLock { $0 } == 3)
        // A restarted feed (or one told to start again) forgets everything.
        graph.feedStarted()
        _ = try await graph.friendIDs(of: "cat")
        #expect(source.calls.withLock { $0 } == 4)
    }

    @Test func anAnswerAChangeOvertookIsNotKept() async throws {
        let source = Source()
        let graph = KeptSocialGraph(source: source)
        graph.feedStarted()
        // The feed reports a change while social's answer is on its way: that answer may predate it.
        source.duringCall.withLock { $0 = { graph.relationshipsChanged(of: ["ann"]) } }
        _ = try await graph.friendIDs(of: "ann")
        #expect(graph.keptUsers == 0)
        source.duringCall.withLock { $0 = { graph.feedLost() } }
        _ = try await graph.friendIDs(of: "ann")
        #expect(graph.keptUsers == 0)
        source.duringCall.withLock { $0 = nil }
        graph.feedStarted()
        _ = try await graph.friendIDs(of: "ann")
        #expect(graph.keptUsers == 1)
    }

    @Test func relationshipsComeFromTheViewersFriendsAndBlocks() async throws {
        let graph = KeptSocialGraph(source: Source())
        graph.feedStarted()
        let facts = try await graph.relationships(of: "ann", among: ["bob", "cat", "dan"])
        #expect(facts["bob"] == SocialFacts(friends: true, blocked: false))
        #expect(facts["cat"] == SocialFacts(friends: false, blocked: false))
        #expect(facts["dan"] == SocialFacts(friends: false, blocked: true))
    }

    @Test func aCopyPastItsBoundStartsAgain() async throws {
        final class Crowd: FriendAndBlockedIDsLookup {
            func friendAndBlockedIDs(of user: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
                let size = user == "huge" ? KeptSocialGraph.maximumKeptIDs : KeptSocialGraph.maximumKeptIDs / 3
                return (Set((0..<size).map { "\(user)-\($0)" }), [])
            }
        }
        let graph = KeptSocialGraph(source: Crowd())
        graph.feedStarted()
        _ = try await graph.friendIDs(of: "huge")
        #expect(graph.keptUsers == 0, "one user over the whole bound is never kept")
        for user in ["a", "b"] { _ = try await graph.friendIDs(of: user) }
        #expect(graph.keptUsers == 2)
        _ = try await graph.friendIDs(of: "c")
        #expect(graph.keptUsers == 1, "the third third overflows: the copy starts again with it")
    }

    /// Records what a feed tells it.
    final class Listener: RelationshipChangeListener {
        private let recorded = Mutex<[String]>([])
        /// Rung on every event.
        private let bell = ChangeBell()
        var events: [String] { recorded.withLock { $0 } }

        func feedStarted() { record("started") }
        func relationshipsChanged(of users: [String]) { record("changed \(users)") }
        func feedLost() { record("lost") }

        /// Returns once `count` events came: woken by the events themselves, not by polling against a deadline,
        /// which the whole suite starting at once on two cores outran (the tests' time limit catches a feed that
        /// hangs).
        func awaitEvents(_ count: Int) async {
            while true {
                let generation = bell.generation
                if events.count >= count { return }
                await bell.wait(after: generation, timeout: .seconds(3600))
            }
        }

        private func record(_ event: String) {
            recorded.withLock { $0.append(event) }
            bell.ring()
        }
    }

    @Test(.timeLimit(.minutes(1))) func aFeedThatCannotReachSocialSaysSoAtOnce() async throws {
        let listener = Listener()
        let feed = RelationshipChangeFeed(
            socialURL: "http://127.0.0.1:1", token: "t", listener: listener, logger: Logger(label: "test"))
        let task = Task { await feed.run() }
        // The first poll fails at once (nothing listens on port 1); the listener hears of it before any retry.
        await listener.awaitEvents(1)
        task.cancel()
        await task.value
        #expect(listener.events.first == "lost")
    }

    @Test(.timeLimit(.minutes(1))) func aFeedStartsItsListenerAgainAfterAFailedPoll() async throws {
        struct Unreachable: Error {}
        let listener = Listener()
        let asked = Mutex<[Int64?]>([])
        // Each poll takes the next answer; the last poll waits until the feed is stopped.
        let answers = Mutex<[Result<RelationshipChangePage, Unreachable>]>([
            .success(RelationshipChangePage(users: [], last: 5, reset: false)),
            .success(RelationshipChangePage(users: ["a"], last: 6, reset: false)),
            .failure(Unreachable()),
            .success(RelationshipChangePage(users: ["b"], last: 7, reset: false)),
            .success(RelationshipChangePage(users: ["c"], last: 8, reset: false)),
            .success(RelationshipChangePage(users: [], last: 8, reset: true)),
        ])
        let feed = RelationshipChangeFeed(listener: listener, logger: Logger(label: "test")) { after in
            asked.withLock { $0.append(after) }
            guard let answer = answers.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else {
                try await Task.sleep(for: .seconds(3600))
                throw CancellationError()
            }
            return try answer.get()
        }
        let task = Task { await feed.run() }
        await listener.awaitEvents(6)
        task.cancel()
        await task.value
        #expect(
            listener.events == [
                "started", "changed [\"a\"]", "lost", "started", "changed [\"c\"]", "started",
            ])
        // The poll after the failure asks from where it was: the changes missed are dropped with the copy.
        #expect(asked.withLock { Array($0.prefix(6)) } == [nil, 5, 6, 6, 7, 8])
    }
}
