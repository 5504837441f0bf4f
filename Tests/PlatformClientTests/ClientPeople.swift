import Foundation
import OpenAPIAsyncHTTPClient
import PlatformClient
import TestSupport
import Testing

/// People using the Swift client against one test stack, each with a client of their own.
struct ClientPeople {
    let stack: TestStack

    /// A client of the stack's gateway, optionally resuming a kept session.
    func client(
        tokens: SessionTokens? = nil, onTokensChange: @escaping @Sendable (SessionTokens?) -> Void = { _ in }
    ) throws -> PlatformClient {
        PlatformClient(
            serverURL: try #require(URL(string: stack.gateway.baseURL)), transport: AsyncHTTPClientTransport(),
            tokens: tokens, onTokensChange: onTokensChange)
    }

    /// A new account `name` (username and e-mail) signed in on its own client.
    func signUp(_ name: String) async throws -> (client: PlatformClient, id: String) {
        let client = try client()
        let profile = try await client.register(
            email: "\(name)@example.com", username: name, password: "a long enough passphrase")
        return (client, profile.id)
    }

    /// `requester` asks `username` to be friends, and `accepter` (that user) accepts.
    func befriend(_ requester: PlatformClient, _ accepter: PlatformClient, username: String) async throws {
        let request = try await requester.api.sendFriendRequest(body: .json(.init(username: username)))
            .created.body.json
        _ = try await accepter.api.answerFriendRequest(path: .init(request: request.id, answer: .accept)).ok
    }
}
