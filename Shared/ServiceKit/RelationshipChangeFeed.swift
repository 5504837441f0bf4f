import Logging
import PlatformKit
import ServiceLifecycle

/// A page of social's relationship-change feed: the users whose friends or blocks changed after the sequence
/// asked for, up to ``last``.
public struct RelationshipChangePage: Codable, Sendable, Equatable {
    /// Users whose friendships or blocks (either way) changed, each once.
    public var users: [String]
    /// The sequence to ask after next.
    public var last: Int64
    /// The changes after the sequence asked for are no longer all known (too old, or social's store was
    /// replaced): forget everything kept.
    public var reset: Bool

    /// Creates a page.
    public init(users: [String], last: Int64, reset: Bool) {
        self.users = users
        self.last = last
        self.reset = reset
    }
}

/// What a service keeps of the social graph, told of every change by a ``RelationshipChangeFeed``.
public protocol RelationshipChangeListener: Sendable {
    /// The feed is live from here on: forget everything kept before.
    func feedStarted()
    /// These users' friends or blocks changed: forget what is kept of them.
    func relationshipsChanged(of users: [String])
    /// The feed cannot be read: forget everything and keep nothing until it starts again.
    func feedLost()
}

/// Long-polls social's relationship changes into a listener until graceful shutdown.
///
/// The first poll asks for nothing but the latest sequence; each later one for the changes after the last seen,
/// which social answers as soon as a change commits. A failed poll tells the listener at once, so nothing is
/// answered from a copy that may have missed a change.
public struct RelationshipChangeFeed: Service {
    private let fetch: @Sendable (_ after: Int64?) async throws -> RelationshipChangePage
    private let listener: any RelationshipChangeListener
    private let loop: LongPollLoop

    /// A feed from social at `socialURL` (read on each poll) with the service credential `token`.
    public init(
        socialURL: ServiceAddress, token: String, listener: any RelationshipChangeListener, logger: Logger,
        wait: Int = 20
    ) {
        let client = InternalClient(
            service: .social, address: socialURL, token: token, timeout: .seconds(Int64(wait) + 10))
        self.init(listener: listener, logger: logger) { after in
            return try await client.get(
                SocialPaths.internalRelationshipChanges + (after.map { "?after=\($0)&wait=\(wait)" } ?? ""))
        }
    }

    /// A feed of the pages `fetch` gives (tests).
    init(
        listener: any RelationshipChangeListener, logger: Logger,
        fetch: @escaping @Sendable (_ after: Int64?) async throws -> RelationshipChangePage
    ) {
        self.fetch = fetch
        self.listener = listener
        self.loop = LongPollLoop(
            name: "relationship change feed", consequence: "the social graph is asked on every request", logger: logger
        )
    }

    public func run() async {
        await cancelWhenGracefulShutdown {
            // After a failed poll the listener has dropped its copy: the next page that arrives starts it again.
            var started = false
            await loop.run(
                poll: { after in
                    let page = try await fetch(after)
                    if !started || page.reset {
                        listener.feedStarted()
                        started = true
                    } else if !page.users.isEmpty {
                        listener.relationshipsChanged(of: page.users)
                    }
                    return page.last
                },
                failed: {
                    started = false
                    listener.feedLost()
                })
        }
    }
}
