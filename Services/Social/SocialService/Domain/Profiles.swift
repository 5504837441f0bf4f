import Foundation
import PlatformKit
import ServiceKit

/// Profile basics kept in the social database, refreshed from the identity service when older than
/// `maximumAge`, so lists and the friend search never call identity per row.
struct ProfileStore: Sendable {
    let database: SocialDatabase
    let directory: any UserDirectory
    let clock: WallClock
    var maximumAge: TimeInterval = 300

    /// The profiles of `ids` (unknown users left out), refreshing missing and stale ones in one call.
    func profiles(_ ids: [String]) async throws -> [String: ProfileRow] {
        let now = clock.now
        var known = Dictionary(
            try await database.profiles(ids).map { ($0.userId, $0) }, uniquingKeysWith: { a, _ in a })
        let stale = ids.filter { known[$0].map { now.timeIntervalSince($0.fetchedAt) > maximumAge } ?? true }
        if !stale.isEmpty {
            let fresh = try await directory.users(ids: stale).map {
                ProfileRow(
                    userId: $0.id, username: $0.username, displayName: $0.displayName, avatarUrl: $0.avatarUrl,
                    fetchedAt: now)
            }
            try await database.save(fresh)
            for profile in fresh { known[profile.userId] = profile }
        }
        return known
    }
}
