import Foundation
import PlatformKit
import ServiceKit

/// Who a user follows with the other's approval: the only people whose habits and events they may see.
public protocol FollowGraph: Sendable {
    /// The ids of the users `userID` follows (approved requests only).
    func followees(of userID: String, requestID: String?) async throws -> [String]
}

extension SocialGraphClient: FollowGraph {
    public func followees(of userID: String, requestID: String?) async throws -> [String] {
        try await followingIDs(of: userID, requestID: requestID)
    }
}
