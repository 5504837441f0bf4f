import Foundation
import PlatformKit
import ServiceKit

/// The identity service's user directory, as the social graph reads it: profile basics kept in the social
/// database and refreshed from identity when older than `maximumAge`, so lists and the friend search never call
/// identity per row.
struct ProfileStore: Sendable {
    let store: any SocialStore
    let directory: any UserDirectory
    let clock: WallClock
    var maximumAge: TimeInterval = 300

    /// The profiles of `ids` (unknown users left out), refreshing missing and stale ones in one call.
    func profiles(_ ids: [String]) async throws -> [String: ProfileRecord] {
        try await profiles(ids, stored: store.profiles(ids))
    }

    /// The profiles of `ids` from what the caller already read of them (`stored`), refreshing missing and stale
    /// ones in one call.
    func profiles(_ ids: [String], stored: [ProfileRecord]) async throws -> [String: ProfileRecord] {
        let now = clock.now
        var known = Dictionary(stored.map { ($0.userId, $0) }, uniquingKeysWith: { a, _ in a })
        let stale = ids.filter { known[$0].map { now.timeIntervalSince($0.fetchedAt) > maximumAge } ?? true }
        if !stale.isEmpty {
            let fresh = try await directory.users(ids: stale).map {
                ProfileRecord(
                    userId: $0.id, username: $0.username, displayName: $0.displayName, avatarUrl: $0.avatarUrl,
                    fetchedAt: now)
            }
            try await store.save(fresh)
            for profile in fresh { known[profile.userId] = profile }
        }
        return known
    }

    /// The display name of `userID` for a notice's text, if identity knows the user.
    func displayName(of userID: String) async throws -> String? {
        try await profiles([userID])[userID]?.displayName
    }

    /// How a request names another user.
    enum Reference: Sendable, Equatable {
        case id(String)
        /// A username already in its canonical (validated) form.
        case username(String)
    }

    /// The id of the user `reference` names; an unknown user is ``SocialError/notFound(_:)``.
    func userID(of reference: Reference) async throws -> String {
        switch reference {
        case .id(let id):
            guard id.count <= 64, try await !directory.users(ids: [id]).isEmpty else {
                throw SocialError.notFound("The user")
            }
            return id
        case .username(let name):
            guard let user = try await directory.user(username: name) else { throw SocialError.notFound("The user") }
            return user.id
        }
    }
}
