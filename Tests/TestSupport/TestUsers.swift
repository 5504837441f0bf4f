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
    /// Registers a user through the gateway and returns their tokens.
    public func register(
        _ username: String, email: String? = nil, password: String = "a long enough passphrase"
    ) async throws -> TestUser {
        let email = email ?? "\(username)@example.com"
        let response = try await gateway.post(
            IdentityPaths.register, json: ["email": email, "username": username, "password": password])
        guard response.status == 201 else { throw TestUserError.registrationFailed(response.status, response.text) }
        let body = response.object
        let user = body["user"] as? [String: Any] ?? [:]
        return TestUser(
            id: user["id"] as? String ?? "", username: username, email: email, password: password,
            accessToken: body["accessToken"] as? String ?? "", refreshToken: body["refreshToken"] as? String ?? "",
            sessionID: body["sessionId"] as? String ?? "")
    }
}

public enum TestUserError: Error {
    case registrationFailed(Int, String)
}
