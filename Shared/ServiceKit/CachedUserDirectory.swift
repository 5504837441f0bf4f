import Foundation
import PlatformKit
import Synchronization

/// Remembers profile basics for a minute, so member lists, statistics and @mentions do not ask the identity
/// service on every request; a name someone just changed shows up within that minute.
public final class CachedUserDirectory: UserDirectory {
    private let upstream: any UserDirectory
    private let clock: WallClock
    private let lifetime: TimeInterval
    private let entries = Mutex<[String: (user: DirectoryUser, fetchedAt: Date)]>([:])

    /// Caches `upstream`'s answers for `lifetime` seconds of `clock` time.
    public init(_ upstream: any UserDirectory, clock: WallClock, lifetime: TimeInterval = 60) {
        self.upstream = upstream
        self.clock = clock
        self.lifetime = lifetime
    }

    public func user(username: String) async throws -> DirectoryUser? {
        try await upstream.user(username: username)
    }

    public func users(ids: [String]) async throws -> [DirectoryUser] {
        let now = clock.now
        let cached = entries.withLock { entries in
            ids.compactMap { id in
                entries[id].flatMap { now.timeIntervalSince($0.fetchedAt) < lifetime ? $0.user : nil }
            }
        }
        let missing = Set(ids).subtracting(cached.map(\.id))
        guard !missing.isEmpty else { return cached }
        let fetched = try await upstream.users(ids: Array(missing))
        entries.withLock { entries in
            if entries.count > 50_000 { entries.removeAll() }
            for user in fetched { entries[user.id] = (user, now) }
        }
        return cached + fetched
    }
}
