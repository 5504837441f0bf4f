import Foundation
import PlatformKit

/// Profile basics of users, as the identity service shares them with other services.
public protocol UserDirectory: Sendable {
    /// The user with this username, or `nil`.
    func user(username: String) async throws -> DirectoryUser?
    /// The users with these ids that exist, in no particular order.
    func users(ids: [String]) async throws -> [DirectoryUser]
}

/// A user's profile basics.
public struct DirectoryUser: Codable, Sendable, Equatable {
    public var id: String
    public var username: String?
    public var displayName: String
    public var avatarUrl: String?

    /// Creates profile basics.
    public init(id: String, username: String?, displayName: String, avatarUrl: String? = nil) {
        self.id = id
        self.username = username
        self.displayName = displayName
        self.avatarUrl = avatarUrl
    }
}

/// The identity service's internal lookups; its failures become 503 problems.
public struct IdentityUserDirectory: UserDirectory {
    private let client: InternalClient
    static let batchSize = 500
    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// A directory calling identity at `settings.identityURL` with the service credential.
    public init(settings: ServiceSettings) {
        self.client = InternalClient(service: .identity, address: settings.identityURL, token: settings.internalToken)
    }

    public func user(username: String) async throws -> DirectoryUser? {
        do {
            // RFC 3986's unreserved characters travel as they are: '_' and '.' are allowed in usernames, and the
            // receiving router does not decode %5F or %2E back.
            let name = username.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
            return try await client.get(IdentityPaths.internalUserByUsername + "/" + name, as: DirectoryUser.self)
        } catch InternalCallError.failed(_, status: 404, _) {
            return nil
        } catch let error as InternalCallError {
            throw error.problem
        }
    }

    public func users(ids: [String]) async throws -> [DirectoryUser] {
        struct Reply: Decodable { var users: [DirectoryUser] }
        do {
            var found: [DirectoryUser] = []
            for start in stride(from: 0, to: ids.count, by: Self.batchSize) {
                let batch = Array(ids[start..<min(start + Self.batchSize, ids.count)])
                found += try await client.post(IdentityPaths.internalUsersBatch, body: ["ids": batch], as: Reply.self)
                    .users
            }
            return found
        } catch let error as InternalCallError {
            throw error.problem
        }
    }
}
