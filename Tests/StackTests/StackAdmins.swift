import Foundation
import PlatformKit
import TestSupport
import Testing

/// Platform admins in whole-stack tests.
extension TestStack {
    /// Grants the admin role with the operator's command and returns the user with a refreshed token.
    func makeAdmin(_ user: TestUser) async throws -> TestUser {
        let granted = try await roles(.grant(role: "admin", user: user.id))
        #expect(granted.hasPrefix("granted admin"), "\(granted)")
        return try await renew(user)
    }

    /// The user with fresh tokens (access tokens last 15 minutes; tests move the clock by hours).
    func renew(_ user: TestUser) async throws -> TestUser {
        let refreshed = try await gateway.post(IdentityPaths.refresh, json: ["refreshToken": user.refreshToken])
        #expect(refreshed.status == 200, "\(refreshed.text)")
        var renewed = user
        let tokens = try refreshed.decode(SignedIn.self)
        renewed.accessToken = tokens.accessToken
        renewed.refreshToken = tokens.refreshToken
        return renewed
    }
}
