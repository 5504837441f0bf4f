import Foundation
import PlatformKit
import ServiceKit

/// How a viewer stands to another user, as far as the map cares.
public struct GeoSocialFacts: Codable, Sendable, Equatable {
    public var friends: Bool
    /// Either side blocked the other: their pins are hidden from each other.
    public var blocked: Bool

    public init(friends: Bool, blocked: Bool) {
        self.friends = friends
        self.blocked = blocked
    }
}

/// The social graph's answers the geo service needs.
public protocol GeoSocialGraph: Sendable {
    /// The viewer's friends.
    func friendIDs(of viewer: String) async throws -> Set<String>
    /// Users the viewer blocked or was blocked by: their pins are not even counted in the viewer's clusters.
    func blockedIDs(of viewer: String) async throws -> Set<String>
    /// How the viewer stands to each of `others` (users missing from the answer are strangers).
    func facts(of viewer: String, about others: [String]) async throws -> [String: GeoSocialFacts]
}

/// The social service's internal routes; its failures become 503 problems.
public struct GeoSocialClient: GeoSocialGraph {
    private let client: InternalClient
    /// The social service answers at most this many users per call.
    static let batchSize = 10_000

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    public init(baseURL: String, token: String) {
        self.client = InternalClient(service: .social, baseURL: baseURL, token: token)
    }

    public func friendIDs(of viewer: String) async throws -> Set<String> {
        try await ids(of: viewer, "friend-ids")
    }

    public func blockedIDs(of viewer: String) async throws -> Set<String> {
        try await ids(of: viewer, "blocked-ids")
    }

    private func ids(of viewer: String, _ list: String) async throws -> Set<String> {
        struct Reply: Decodable { var ids: [String] }
        // Unreserved characters stay as they are (ids are UUIDs): the router matches the raw segment.
        let user = viewer.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        do {
            return Set(try await client.get(SocialPaths.internalUsers + "/\(user)/\(list)", as: Reply.self).ids)
        } catch let error as InternalCallError {
            throw error.problem
        }
    }

    public func facts(of viewer: String, about others: [String]) async throws -> [String: GeoSocialFacts] {
        struct Request: Encodable {
            var viewer: String
            var others: [String]
        }
        struct Reply: Decodable { var relationships: [String: GeoSocialFacts] }
        var result: [String: GeoSocialFacts] = [:]
        do {
            for start in stride(from: 0, to: others.count, by: Self.batchSize) {
                let batch = Array(others[start..<min(start + Self.batchSize, others.count)])
                let reply = try await client.post(
                    SocialPaths.internalRelationships, body: Request(viewer: viewer, others: batch), as: Reply.self)
                result.merge(reply.relationships) { _, new in new }
            }
        } catch let error as InternalCallError {
            throw error.problem
        }
        return result
    }
}
