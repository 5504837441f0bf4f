import Crypto
import Foundation
import IdentityService
import PlatformKit
import ServiceKit

extension TestStack {
    /// Runs the operator's role command on this stack's identity database, as `Identity roles ...` does in identity's
    /// container (the same configuration, the same file or PostgreSQL database); returns the line it prints.
    public func roles(_ command: RoleCommand) async throws -> String {
        let settings = ServiceSettings(
            service: .identity, dataDirectory: dataDirectory.path, database: databases[.identity],
            internalToken: internalToken, clock: clock.wallClock)
        return try await command.run(
            IdentityConfiguration(settings: settings, signingKey: Curve25519.Signing.PrivateKey()))
    }

    /// A nonce from identity through the gateway, as an app asks for one before it opens the provider's sign-in.
    public func oidcNonce() async throws -> String {
        try await gateway.post(IdentityPaths.oidcNonce).decode(WireNonce.self).nonce
    }

    /// The body of a Google sign-in or link (`provider`, `idToken`, `nonce`): a fresh nonce from identity and an ID
    /// token from the fake issuer that carries it.
    public func googleIDToken(
        subject: String, email: String?, emailVerified: Bool = true, name: String? = "Test Traveller"
    ) async throws -> [String: String] {
        let nonce = try await oidcNonce()
        let token = try await oidc.idToken(
            subject: subject, email: email, emailVerified: emailVerified, name: name, nonce: nonce, now: clock.now)
        return ["provider": "google", "idToken": token, "nonce": nonce]
    }
}
