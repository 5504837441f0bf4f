import Foundation
import PlatformKit
import ServiceKit

/// The members of a conversation the viewer is in, from the messaging service: the friend picker of a group
/// leaves them out.
protocol ConversationMembers: Sendable {
    /// The conversation's member ids; one the viewer is not in (or that does not exist) is not found.
    func memberIDs(of conversation: String, viewer: String) async throws -> [String]
}

/// The messaging service's internal members route; its failures become 503 problems, its 404 our own.
struct MessagingMembersClient: ConversationMembers {
    let address: ServiceAddress
    let token: String

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    func memberIDs(of conversation: String, viewer: String) async throws -> [String] {
        struct Reply: Decodable { var ids: [String] }
        let client = InternalClient(service: .messaging, address: address, token: token)
        let path =
            MessagingPaths.internalConversations
            + "/\(Self.escaped(conversation))/members?viewer=\(Self.escaped(viewer))"
        do {
            return try await client.get(path, as: Reply.self).ids
        } catch InternalCallError.failed(_, status: 404, _) {
            throw SocialError.notFound("The conversation")
        } catch let error as InternalCallError {
            throw error.problem
        }
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
