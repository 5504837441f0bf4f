import Foundation
import Logging
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// Keeps this replica's verifier and feed long polls current with the sessions ended elsewhere: by another replica
/// sharing the PostgreSQL database, or by the roles command. Told by the store's watcher after each commit that
/// records some (and, as a safety net for a notice lost while its listener was connecting, every few seconds), it
/// reads the entries after the last it saw, makes the verifier refuse their tokens, and rings the feed's bell.
/// Sessions ended on this replica are also told directly (``RevocationPublishingSink``); hearing them again is
/// harmless.
actor RevocationFollower {
    private let store: any IdentityStore
    private let verifier: AccessTokenVerifier
    private let bell: ChangeBell
    private let clock: WallClock
    /// The feed's sequence up to which this replica has read; `nil` before the first read, which learns every ended
    /// session still in force.
    private var last: Int64?
    /// How often the follower reads without being told (bounds what a lost notice delays).
    static let safetyInterval: Duration = .seconds(10)

    init(store: any IdentityStore, verifier: AccessTokenVerifier, bell: ChangeBell, clock: WallClock) {
        self.store = store
        self.verifier = verifier
        self.bell = bell
        self.clock = clock
    }

    /// Reads every entry after the last seen (the first time, every one still in force).
    func catchUp() async throws {
        guard let after = last else {
            let inForce = try await store.revocations(after: nil, now: clock.now, limit: 0)
            verifier.endSessions(inForce.items)
            last = max(last ?? 0, inForce.last)
            return try await catchUp()
        }
        let page = try await store.revocations(after: after, now: clock.now, limit: InternalSessionsController.pageSize)
        // Two catch-ups may overlap (a notice during the periodic one): the later position wins.
        last = max(last ?? 0, page.last)
        if !page.items.isEmpty {
            verifier.endSessions(page.items)
            bell.ring()
        }
        if page.items.count == InternalSessionsController.pageSize { try await catchUp() }
    }

    /// What runs beside the server: the store's watcher and the periodic catch-up (whose first run, as the store's
    /// pool starts, is the first read); none when no other process writes the store.
    nonisolated func services(logger: Logger) -> [any Service] {
        guard let watcher = store.revocationWatcher({ try? await self.catchUp() }) else { return [] }
        return [
            watcher,
            PeriodicJob("ended-session catch-up", every: Self.safetyInterval, logger: logger) {
                try await self.catchUp()
            },
        ]
    }
}
