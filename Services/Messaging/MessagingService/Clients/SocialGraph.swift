import Foundation
import PlatformKit
import ServiceKit

/// The social graph as messaging asks it.
public protocol SocialGraph: Sendable {
    /// How `a` stands to `b`.
    func relationship(_ a: String, _ b: String) async throws -> SocialFacts
    /// How `viewer` stands to each of `others`; users the graph does not know are neither friends nor blocked.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts]
}

extension SocialGraphClient: SocialGraph {}
