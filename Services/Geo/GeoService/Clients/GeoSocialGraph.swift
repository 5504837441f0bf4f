import Foundation
import PlatformKit
import ServiceKit

/// The social graph's answers the geo service needs.
public protocol GeoSocialGraph: Sendable {
    /// The viewer's friends.
    func friendIDs(of viewer: String) async throws -> Set<String>
    /// The viewer's friends, and the users the viewer blocked or was blocked by (their pins are not even counted in
    /// the viewer's clusters), in one call.
    func friendAndBlockedIDs(of viewer: String) async throws -> (friends: Set<String>, blocked: Set<String>)
    /// How the viewer stands to each of `others` (users missing from the answer are strangers); a block either
    /// way hides their pins from each other.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts]
}

extension SocialGraphClient: GeoSocialGraph {}

extension KeptSocialGraph: GeoSocialGraph {}

extension GeoSocialGraph {
    /// How `owner` stands to `viewer`; `nil` for the viewer themselves (nothing is asked) or a user the graph
    /// does not know.
    func standing(of owner: String, to viewer: String) async throws -> Standing? {
        guard owner != viewer else { return nil }
        return try await relationships(of: viewer, among: [owner])[owner].map {
            Standing(friends: $0.friends, blocked: $0.blocked)
        }
    }
}
