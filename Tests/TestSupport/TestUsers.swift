import Foundation
import PlatformKit

/// A signed-up user as tests hold it.
public struct TestUser: Sendable {
    public var id: String
    public var username: String
    public var email: String
    public var password: String
    public var accessToken: String
    public var refreshToken: String
    public var sessionID: String
}

extension TestStack {
    /// Registers a user through the gateway (or `client`, e.g. identity directly) and returns their tokens.
    public func register(
        _ username: String, email: String? = nil, password: String = "a long enough passphrase",
        via client: APIClient? = nil
    ) async throws -> TestUser {
        let email = email ?? "\(username)@example.com"
        let response = try await (client ?? gateway).post(
            IdentityPaths.register, json: ["email": email, "username": username, "password": password])
        guard response.status == 201 else { throw TestUserError.registrationFailed(response.status, response.text) }
        let pair = try response.decode(WireTokenPair.self)
        return TestUser(
            id: pair.user.id, username: username, email: email, password: password, accessToken: pair.accessToken,
            refreshToken: pair.refreshToken, sessionID: pair.sessionId)
    }
}

public enum TestUserError: Error {
    case registrationFailed(Int, String)
}
