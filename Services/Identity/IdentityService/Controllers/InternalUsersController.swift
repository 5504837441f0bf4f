import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Lookups other services make (profile basics for lists, a username to an id); service credential only.
struct InternalUsersController {
    let database: IdentityDatabase
    static let maximumBatch = 500

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.post(RouterPath(IdentityPaths.internalUsersBatch), use: batch)
        router.get(RouterPath(IdentityPaths.internalUserByUsername + "/:username"), use: byUsername)
    }

    struct BatchRequest: Decodable {
        var ids: [String]
    }

    struct BatchReply: ResponseEncodable, Sendable {
        var users: [PublicProfile]
    }

    /// The profiles of the given ids that exist, in no particular order.
    @Sendable func batch(_ request: Request, context: ServiceRequestContext) async throws -> BatchReply {
        let input = try await request.decode(as: BatchRequest.self, context: context)
        guard input.ids.count <= Self.maximumBatch else {
            throw Problem.invalidField("ids", "at most \(Self.maximumBatch) ids per call.")
        }
        return BatchReply(users: try await database.users(ids: Array(Set(input.ids))).map(PublicProfile.init))
    }

    @Sendable func byUsername(_ request: Request, context: ServiceRequestContext) async throws -> PublicProfile {
        let username = try context.parameters.require("username").lowercased()
        guard let user = try await database.user(identifier: username), !username.contains("@") else {
            throw Problem.notFound("The user")
        }
        return PublicProfile(user)
    }
}
