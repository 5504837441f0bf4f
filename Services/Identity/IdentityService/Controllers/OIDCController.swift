import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// "Sign in with Google/Facebook": the app obtains an ID token from the provider and exchanges it here.
struct OIDCController {
    let database: IdentityDatabase
    let sessions: SessionIssuer
    let clock: WallClock
    let verifier: OIDCVerifier

    func addRoutes(to router: RouterGroup<ServiceRequestContext>) {
        router.post(RouterPath(IdentityPaths.oidc), use: exchange)
    }

    struct ExchangeRequest: Decodable {
        /// The configured provider name, e.g. `google`.
        var provider: String
        var idToken: String
        /// The nonce the app put into the authorization request, if any.
        var nonce: String?
    }

    /// Signs in the account linked to the provider's subject, links an existing account with the same
    /// verified e-mail, or creates an account (which then chooses a username).
    @Sendable func exchange(_ request: Request, context: ServiceRequestContext) async throws -> TokenPair {
        let input = try await request.decode(as: ExchangeRequest.self, context: context)
        guard input.idToken.count <= 8192 else { throw Problem.invalidField("idToken", "is too long.") }
        let identity = try await verifier.verify(provider: input.provider, idToken: input.idToken, nonce: input.nonce)
        let user = try await account(for: identity)
        return try await sessions.start(for: user, userAgent: request.headers[.userAgent])
    }

    private func account(for identity: ExternalIdentity) async throws -> UserRecord {
        if let linked = try await database.user(issuer: identity.issuer, subject: identity.subject) { return linked }
        let now = clock.now
        let link = { (userID: String) in
            ExternalIdentityRecord(issuer: identity.issuer, subject: identity.subject, userId: userID, createdAt: now)
        }
        if let email = identity.email, let existing = try await database.user(identifier: email) {
            // Linking on an unverified address would let anyone who registers that address at the issuer
            // take over the account.
            guard identity.emailVerified else {
                throw Problem.conflict(
                    "account_exists", "An account with this e-mail exists; sign in with your password first.")
            }
            try await database.link(link(existing.id), creating: nil)
            return existing
        }
        let user = UserRecord(
            id: UUID().uuidString.lowercased(), email: identity.email, emailVerified: identity.emailVerified,
            username: nil, passwordHash: nil, displayName: String((identity.name ?? "").prefix(50)), bio: "",
            homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now)
        try await database.link(link(user.id), creating: user)
        return user
    }
}
