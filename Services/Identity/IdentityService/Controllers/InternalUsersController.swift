import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Lookups other services make (profile basics for lists, a username to an id); service credential only. Roles are
/// not changed here or by any route: only the operator's command does (``RoleCommand``).
struct InternalUsersController {
    let store: any IdentityStore
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
        return BatchReply(users: try await store.users(ids: Array(Set(input.ids))).map(PublicProfile.init))
    }

    @Sendable func byUsername(_ request: Request, context: ServiceRequestContext) async throws -> PublicProfile {
        // Callers encode what is not unreserved; decode it here, since the router hands the segment over as sent.
        let segment = try context.parameters.require("username")
        let username = (segment.removingPercentEncoding ?? segment).lowercased()
        guard let user = try await store.user(identifier: username), !username.contains("@") else {
            throw IdentityError.notFound("The user")
        }
        return PublicProfile(user)
    }
}
