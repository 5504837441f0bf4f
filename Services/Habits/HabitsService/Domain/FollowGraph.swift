import Foundation
import PlatformKit
import ServiceKit

/// Who a user follows with the other's approval: the only people whose habits and events they may see.
public protocol FollowGraph: Sendable {
    /// The ids of the users `userID` follows (approved requests only).
    func followees(of userID: String, requestID: String?) async throws -> [String]
}

/// The social service's graph, read through its internal routes with the service credential.
public struct SocialFollowGraph: FollowGraph {
    private let socialURL: @Sendable () -> String
    private let token: String

    /// `socialURL` is read on each call, so a test stack may start the social service after this one.
    public init(socialURL: @escaping @Sendable () -> String, token: String) {
        self.socialURL = socialURL
        self.token = token
    }

    struct IDs: Decodable {
        var ids: [String]
    }

    public func followees(of userID: String, requestID: String?) async throws -> [String] {
        let client = InternalClient(service: .social, baseURL: socialURL(), token: token)
        let escaped = userID.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? ""
        do {
            return try await client.get(
                SocialPaths.internalUsers + "/" + escaped + "/following-ids", as: IDs.self, requestID: requestID
            ).ids
        } catch let error as InternalCallError {
            throw error.problem
        }
    }
}
