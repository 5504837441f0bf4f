import Prometheus
import Synchronization

/// Each user's friends and blocks (either way) as social last said, kept while a ``RelationshipChangeFeed`` is
/// live and forgotten as it reports changes, so a read that needs them (geo's map) does not ask social each time.
///
/// Nothing is answered from the copy while the feed is down. A change reaches the copy as fast as social's long
/// poll answers (milliseconds on one network); an answer fetched while a change arrived is not kept, since it may
/// predate the change.
public final class KeptSocialGraph: RelationshipChangeListener {
    /// Friends and blocked users kept in all, counting one more per user: past it the copy starts again empty.
    public static let maximumKeptIDs = 250_000

    private struct State {
        var live = false
        /// Bumped by every change, start and loss, so a fetch can tell that one came while it was away.
        var epoch: UInt64 = 0
        var kept: [String: (friends: Set<String>, blocked: Set<String>)] = [:]
        var keptIDs = 0

        mutating func forgetAll() {
            epoch &+= 1
            kept.removeAll()
            keptIDs = 0
        }
    }

    private let source: any FriendAndBlockedIDsLookup
    private let state = Mutex(State())
    /// 1 while the copy is used, 0 while every read asks social; and how many users it holds.
    private let liveGauge: Gauge?
    private let usersGauge: Gauge?

    /// A copy of what `source` says (``SocialGraphClient``; a fake in tests), empty and unused until its feed starts;
    /// reported in `metrics` if given.
    public init(source: any FriendAndBlockedIDsLookup, metrics: ServiceMetrics? = nil) {
        self.source = source
        liveGauge = metrics?.registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "social_graph_copy", unitName: "live",
                helpText: "1 while the copy of the social graph answers, 0 while social is asked."))
        usersGauge = metrics?.registry.makeGauge(
            descriptor: MetricNameDescriptor(
                metricName: "social_graph_copy", unitName: "users",
                helpText: "Users whose friends and blocks the copy holds."))
    }

    /// The user's friends, and those the user blocked or was blocked by.
    public func friendAndBlockedIDs(of user: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
        let (kept, epoch) = state.withLock { ($0.live ? $0.kept[user] : nil, $0.epoch) }
        if let kept { return kept }
        let fetched = try await source.friendAndBlockedIDs(of: user)
        state.withLock { state in
            let cost = 1 + fetched.friends.count + fetched.blocked.count
            guard state.live, state.epoch == epoch, state.kept[user] == nil, cost <= Self.maximumKeptIDs else {
                return
            }
            if state.keptIDs + cost > Self.maximumKeptIDs { state.forgetAll() }
            state.kept[user] = fetched
            state.keptIDs += cost
            usersGauge?.set(Int64(state.kept.count))
        }
        return fetched
    }

    /// The user's friends.
    public func friendIDs(of user: String) async throws -> Set<String> {
        try await friendAndBlockedIDs(of: user).friends
    }

    /// How `viewer` stands to each of `others`, from the viewer's friends and blocks.
    public func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] {
        let (friends, blocked) = try await friendAndBlockedIDs(of: viewer)
        var facts: [String: SocialFacts] = [:]
        for other in others {
            facts[other] = SocialFacts(friends: friends.contains(other), blocked: blocked.contains(other))
        }
        return facts
    }

    /// How many users' relationships are kept (for tests).
    public var keptUsers: Int { state.withLock { $0.kept.count } }

    public func feedStarted() { start(live: true) }

    public func relationshipsChanged(of users: [String]) {
        state.withLock { state in
            state.epoch &+= 1
            for user in users {
                if let gone = state.kept.removeValue(forKey: user) {
                    state.keptIDs -= 1 + gone.friends.count + gone.blocked.count
                }
            }
            usersGauge?.set(Int64(state.kept.count))
        }
    }

    public func feedLost() { start(live: false) }

    /// Starts again empty, answering from the copy from now on or not at all.
    private func start(live: Bool) {
        state.withLock { state in
            state.live = live
            state.forgetAll()
        }
        liveGauge?.set(Int64(live ? 1 : 0))
        usersGauge?.set(Int64(0))
    }
}
