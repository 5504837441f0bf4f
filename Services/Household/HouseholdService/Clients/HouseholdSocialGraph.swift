import Foundation
import PlatformKit
import ServiceKit

/// The social graph as household asks it: whether two people blocked each other (an invitation between them is
/// answered as for an unknown user).
public protocol HouseholdSocialGraph: Sendable {
    /// How `a` stands to `b`.
    func relationship(_ a: String, _ b: String) async throws -> SocialFacts
}

extension SocialGraphClient: HouseholdSocialGraph {}
