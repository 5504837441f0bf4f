import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Relationship lookups for other services (messaging, geo, habits); service credential only.
struct InternalSocialController {
    let store: any SocialStore
    /// Rung when a friendship or a block changes (``SocialStore/ringOnRelationshipChanges(_:)``).
    let changes: ChangeBell
    static let maximumBatch = 10_000
    /// Longest a poll of the change feed waits; the feed asks for 20 s.
    static let maximumWait = 25
    /// Most changes in one answer; the feed asks again at once for the rest.
    static let changesPageSize = 1000

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.get(RouterPath(SocialPaths.internalRelationship), use: relationship)
        router.post(RouterPath(SocialPaths.internalRelationships), use: relationships)
        router.post(RouterPath(SocialPaths.internalRelations), use: relations)
        router.get(RouterPath(SocialPaths.internalUsers + "/:user/friend-ids"), use: friendIDs)
        router.get(RouterPath(SocialPaths.internalUsers + "/:user/following-ids"), use: followingIDs)
        router.get(RouterPath(SocialPaths.internalUsers + "/:user/blocked-ids"), use: blockedIDs)
        router.get(RouterPath(SocialPaths.internalUsers + "/:user/friend-and-blocked-ids"), use: friendAndBlockedIDs)
        router.get(RouterPath(SocialPaths.internalRelationshipChanges), use: relationshipChanges)
    }

    /// How `a` stands to `b`.
    @Sendable func relationship(_ request: Request, context: ServiceRequestContext) async throws -> Relationship {
        let query = request.uri.queryParameters
        guard let a = query["a"].map(String.init), let b = query["b"].map(String.init) else {
            throw Problem.badRequest("missing_users", "Pass the two user ids as a and b.")
        }
        return try await store.relationship(a, b)
    }

    struct BatchRequest: Decodable {
        var viewer: String
        var others: [String]
    }

    /// The three facts a map or a feed needs per user, kept small: a reply covers thousands of users.
    struct Facts: Encodable, Sendable {
        var friends: Bool
        var following: Bool
        var blocked: Bool
    }

    struct BatchReply: ResponseEncodable, Sendable {
        var relationships: [String: Facts]
    }

    /// How `viewer` stands to each of `others` (friend, following, blocked), for thousands at once.
    @Sendable func relationships(_ request: Request, context: ServiceRequestContext) async throws -> BatchReply {
        let input = try await request.decode(as: BatchRequest.self, context: context)
        guard input.others.count <= Self.maximumBatch else {
            throw Problem.invalidField("others", "at most \(Self.maximumBatch) ids per call.")
        }
        let relationships = try await store.relationships(of: input.viewer, among: input.others)
        return BatchReply(
            relationships: relationships.mapValues {
                Facts(friends: $0.friends, following: $0.following, blocked: $0.blocked)
            })
    }

    struct RelationsReply: ResponseEncodable, Sendable {
        var relations: [String: RelationFlags]
        /// Those of `others` who blocked the viewer: lists leave them out.
        var blockedBy: [String]
    }

    /// How `viewer` stands to each of a page of users, in the public words, and who of them blocked the viewer.
    @Sendable func relations(_ request: Request, context: ServiceRequestContext) async throws -> RelationsReply {
        let input = try await request.decode(as: BatchRequest.self, context: context)
        guard input.others.count <= SocialGraphClient.relationsBatch else {
            throw Problem.invalidField("others", "at most \(SocialGraphClient.relationsBatch) ids per call.")
        }
        let relationships = try await store.fullRelationships(of: input.viewer, among: input.others)
        return RelationsReply(
            relations: relationships.mapValues(\.flags),
            blockedBy: relationships.filter(\.value.blockedByOther).keys.sorted())
    }

    struct IDs: ResponseEncodable, Sendable {
        var ids: [String]
    }

    @Sendable func friendIDs(_ request: Request, context: ServiceRequestContext) async throws -> IDs {
        IDs(ids: try await store.friendIDs(of: try context.parameters.require("user")).sorted())
    }

    struct FriendAndBlockedIDs: ResponseEncodable, Sendable {
        var friendIds: [String]
        var blockedIds: [String]
    }

    /// Both lists the map's clusters need, from one read: one call instead of two on geo's hottest read.
    @Sendable func friendAndBlockedIDs(_ request: Request, context: ServiceRequestContext) async throws
        -> FriendAndBlockedIDs
    {
        let (friends, blocked) = try await store.friendAndBlockedIDs(of: try context.parameters.require("user"))
        return FriendAndBlockedIDs(friendIds: friends.sorted(), blockedIds: blocked.sorted())
    }

    @Sendable func followingIDs(_ request: Request, context: ServiceRequestContext) async throws -> IDs {
        IDs(ids: try await store.followingIDs(of: try context.parameters.require("user")))
    }

    /// Users blocked by or blocking the user: what they share must be hidden between them.
    @Sendable func blockedIDs(_ request: Request, context: ServiceRequestContext) async throws -> IDs {
        IDs(ids: try await store.blockedEitherWay(of: try context.parameters.require("user")).sorted())
    }

    /// Without `after`: just the sequence to start from. With it: the users whose friends or blocks changed
    /// since, waiting up to `wait` seconds for the next change when there is none yet.
    @Sendable func relationshipChanges(_ request: Request, context: ServiceRequestContext) async throws
        -> RelationshipChangePage
    {
        let query = try LongPollQuery(request, maximumWait: Self.maximumWait)
        return try await changes.answer(query) {
            try await store.relationshipChanges(after: query.after, limit: Self.changesPageSize)
        } isEmpty: {
            $0.users.isEmpty && !$0.reset
        }
    }
}

extension RelationshipChangePage: ResponseGenerator, ResponseEncodable {}

extension Relationship: ResponseGenerator, ResponseEncodable {}
