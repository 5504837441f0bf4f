import Foundation
import PlatformKit
import ServiceKit

/// The social graph as messaging asks it: one pair (``SocialRelationshipLookup``), or one viewer and many others.
public protocol SocialGraph: SocialRelationshipLookup {
    /// How `viewer` stands to each of `others`; users the graph does not know are neither friends nor blocked.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts]
}

extension SocialGraphClient: SocialGraph {}
