import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Lookups other services make (profile basics for lists, a username to an id) and the operators' role
/// grants; service credential only.
struct InternalUsersController {
    let database: IdentityDatabase
    let clock: WallClock
    static let maximumBatch = 500

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.post(RouterPath(IdentityPaths.internalUsersBatch), use: batch)
        router.get(RouterPath(IdentityPaths.internalUserByUsername + "/:username"), use: byUsername)
        router.put(RouterPath(IdentityPaths.internalUsers + "/:user/roles"), use: setRoles)
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
        // Callers encode what is not unreserved; decode it here, since the router hands the segment over as sent.
        let segment = try context.parameters.require("username")
        let username = (segment.removingPercentEncoding ?? segment).lowercased()
        guard let user = try await database.user(identifier: username), !username.contains("@") else {
            throw IdentityError.notFound("The user")
        }
        return PublicProfile(user)
    }

    struct RolesRequest: Decodable {
        var roles: [String]
    }

    struct RolesReply: ResponseEncodable, Sendable {
        var id: String
        var roles: [String]
    }

    /// Replaces a user's roles (e.g. `["admin"]`); they reach the user's next access token (login or refresh).
    @Sendable func setRoles(_ request: Request, context: ServiceRequestContext) async throws -> RolesReply {
        let input = try await request.decode(as: RolesRequest.self, context: context)
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyz_")
        guard input.roles.count <= 8,
            input.roles.allSatisfy({
                (1...32).contains($0.count) && $0.unicodeScalars.allSatisfy(allowed.contains)
            })
        else {
            throw Problem.invalidField("roles", "must be at most 8 roles of lower-case letters and underscores.")
        }
        let roles = Array(Set(input.roles)).sorted()
        let user = try await database.updateUser(id: try context.parameters.require("user"), now: clock.now) {
            $0.roles = roles.joined(separator: ",")
        }
        return RolesReply(id: user.id, roles: user.roleList)
    }
}
