import Foundation
import PlatformKit

/// How one user stands to another in the social graph, as other services need it.
public struct SocialFacts: Codable, Sendable, Equatable {
    /// The two are friends.
    public var friends: Bool
    /// Either blocked the other.
    public var blocked: Bool

    /// Creates the facts.
    public init(friends: Bool, blocked: Bool) {
        self.friends = friends
        self.blocked = blocked
    }
}

/// How the viewer stands to another user, in the words every public answer uses (the relationship route and the
/// user directory): each flag from the viewer's side. Being blocked by the other is never shown.
public struct RelationFlags: Codable, Sendable, Equatable {
    /// The two are friends.
    public var friend = false
    /// The viewer's friend request to the other waits for an answer.
    public var friendRequestSent = false
    /// The other's friend request to the viewer waits for the viewer's answer.
    public var friendRequestReceived = false
    /// The viewer follows the other.
    public var following = false
    /// The viewer asked to follow the other, who has not approved yet.
    public var followRequestSent = false
    /// The other asked to follow the viewer, who has not approved yet.
    public var followRequestReceived = false
    /// The other follows the viewer.
    public var followedBy = false
    /// The viewer blocked the other.
    public var blocked = false

    /// No relation at all.
    public init() {}
}

/// The social service's internal routes, for the services that need friends, follows and blocks; its failures
/// become 503 problems. It answers every port of `SocialGraphPorts.swift`; each service holds the ports it needs.
public struct SocialGraphClient: Sendable {
    private let address: ServiceAddress
    private let token: String
    /// The social service answers at most this many users per relationships call.
    static let batchSize = 10_000

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// A client for the social service at `address`.
    public init(address: ServiceAddress, token: String) {
        self.address = address
        self.token = token
    }

    /// How `a` stands to `b`.
    public func relationship(_ a: String, _ b: String) async throws -> SocialFacts {
        try await call { client in
            try await client.get(SocialPaths.internalRelationship + "?a=\(Self.escaped(a))&b=\(Self.escaped(b))")
        }
    }

    /// How `viewer` stands to each of `others`; users the graph does not know are neither friends nor blocked.
    public func relationships(of viewer: String, among others: [String]) async throws -> [String: SocialFacts] {
        struct Body: Encodable, Sendable {
            var viewer: String
            var others: [String]
        }
        struct Reply: Decodable { var relationships: [String: SocialFacts] }
        var result: [String: SocialFacts] = [:]
        for start in stride(from: 0, to: others.count, by: Self.batchSize) {
            let batch = Array(others[start..<min(start + Self.batchSize, others.count)])
            let reply = try await call { client in
                try await client.post(
                    SocialPaths.internalRelationships, body: Body(viewer: viewer, others: batch), as: Reply.self)
            }
            result.merge(reply.relationships) { _, new in new }
        }
        return result
    }

    /// How `viewer` stands to each of `others` (at most ``relationsBatch``), and which of them blocked the viewer
    /// (to be left out of what the viewer is shown).
    public func relations(of viewer: String, among others: [String]) async throws
        -> (flags: [String: RelationFlags], blockedBy: Set<String>)
    {
        struct Body: Encodable, Sendable {
            var viewer: String
            var others: [String]
        }
        struct Reply: Decodable {
            var relations: [String: RelationFlags]
            var blockedBy: [String]
        }
        guard !others.isEmpty else { return ([:], []) }
        let reply = try await call { client in
            try await client.post(
                SocialPaths.internalRelations, body: Body(viewer: viewer, others: others), as: Reply.self)
        }
        return (reply.relations, Set(reply.blockedBy))
    }

    /// The most users one ``relations(of:among:)`` call answers for: a page of a list.
    public static let relationsBatch = 200

    /// The user's friends.
    public func friendIDs(of user: String) async throws -> Set<String> {
        Set(try await ids(of: user, "friend-ids", requestID: nil))
    }

    /// Those the user follows with their approval.
    public func followingIDs(of user: String, requestID: String? = nil) async throws -> [String] {
        try await ids(of: user, "following-ids", requestID: requestID)
    }

    /// The user's friends, and those the user blocked or was blocked by, in one call.
    public func friendAndBlockedIDs(of user: String) async throws -> (friends: Set<String>, blocked: Set<String>) {
        struct Reply: Decodable {
            var friendIds: [String]
            var blockedIds: [String]
        }
        let reply = try await call { client in
            try await client.get(
                SocialPaths.internalUsers + "/\(Self.escaped(user))/friend-and-blocked-ids", as: Reply.self,
                requestID: nil)
        }
        return (Set(reply.friendIds), Set(reply.blockedIds))
    }

    private func ids(of user: String, _ list: String, requestID: String?) async throws -> [String] {
        struct Reply: Decodable { var ids: [String] }
        return try await call { client in
            try await client.get(
                SocialPaths.internalUsers + "/\(Self.escaped(user))/\(list)", as: Reply.self, requestID: requestID)
        }.ids
    }

    private func call<Reply>(_ body: (InternalClient) async throws -> Reply) async throws -> Reply {
        do {
            return try await body(InternalClient(service: .social, address: address, token: token))
        } catch let error as InternalCallError {
            throw error.problem
        }
    }

    /// Unreserved characters stay as they are (ids are UUIDs): the router matches the raw segment.
    private static func escaped(_ id: String) -> String {
        id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
