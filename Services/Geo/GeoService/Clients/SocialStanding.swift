import Foundation
import PlatformKit
import ServiceKit

extension SocialRelationshipsLookup {
    /// How `owner` stands to `viewer`; `nil` for the viewer themselves (nothing is asked) or a user the graph
    /// does not know.
    func standing(of owner: String, to viewer: String) async throws -> Standing? {
        guard owner != viewer else { return nil }
        return try await relationships(of: viewer, among: [owner])[owner].map {
            Standing(friends: $0.friends, blocked: $0.blocked)
        }
    }
}
