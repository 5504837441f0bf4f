import Foundation
import PlatformKit
import ServiceKit

/// What messaging needs to know about how two users stand to each other.
public struct RelationshipFacts: Codable, Sendable, Equatable {
    /// The two are friends.
    public var friends: Bool
    /// Either blocked the other.
    public var blocked: Bool

    public init(friends: Bool, blocked: Bool) {
        self.friends = friends
        self.blocked = blocked
    }
}

/// The social graph as messaging asks it.
public protocol SocialGraph: Sendable {
    /// How `a` stands to `b`.
    func relationship(_ a: String, _ b: String) async throws -> RelationshipFacts
    /// How `viewer` stands to each of `others`; users the graph does not know are neither friends nor blocked.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: RelationshipFacts]
}

/// The social service's internal routes; its failures become 503 problems.
public struct SocialServiceGraph: SocialGraph {
    let client: InternalClient

    /// A graph asking the social service at `baseURL` with the service credential.
    public init(baseURL: String, internalToken: String) {
        self.client = InternalClient(service: .social, baseURL: baseURL, token: internalToken)
    }

    public func relationship(_ a: String, _ b: String) async throws -> RelationshipFacts {
        let a = a.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let b = b.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        do {
            return try await client.get(SocialPaths.internalRelationship + "?a=\(a)&b=\(b)")
        } catch let error as InternalCallError {
            throw error.problem
        }
    }

    public func relationships(of viewer: String, among others: [String]) async throws -> [String: RelationshipFacts] {
        struct Body: Encodable, Sendable {
            var viewer: String
            var others: [String]
        }
        struct Reply: Decodable { var relationships: [String: RelationshipFacts] }
        guard !others.isEmpty else { return [:] }
        do {
            return try await client.post(
                SocialPaths.internalRelationships, body: Body(viewer: viewer, others: others), as: Reply.self
            ).relationships
        } catch let error as InternalCallError {
            throw error.problem
        }
    }
}
