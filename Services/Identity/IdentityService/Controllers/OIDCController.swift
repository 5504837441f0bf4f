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

    func addRoutes(public router: RouterGroup<ServiceRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(IdentityPaths.oidc), use: exchange)
        signedIn.get(RouterPath(IdentityPaths.identities), use: listIdentities)
        signedIn.post(RouterPath(IdentityPaths.identities), use: linkIdentity)
        signedIn.delete(RouterPath(IdentityPaths.identities + "/:provider"), use: unlinkIdentity)
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
            // Both sides must have proved the address: an unverified one at the issuer lets anyone who registers
            // it there take over the account; an unverified one here may belong to someone who registered the
            // owner's address first and whose password would keep working (issue 16, item 4).
            guard identity.emailVerified, existing.emailVerified else {
                throw Problem.conflict(
                    "account_exists",
                    "An account with this e-mail exists; sign in with its password, then link this provider from "
                        + "your account settings.")
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

    // MARK: Linking from settings

    struct LinkedIdentity: ResponseEncodable, Sendable {
        var provider: String
        var linkedAt: Date
    }

    struct LinkedIdentityList: ResponseEncodable, Sendable {
        var items: [LinkedIdentity]
    }

    @Sendable func listIdentities(_ request: Request, context: AuthenticatedContext) async throws
        -> LinkedIdentityList
    {
        let linked = try await database.externalIdentities(userID: context.user.userID)
        return LinkedIdentityList(
            items: linked.compactMap { identity in
                verifier.providerName(issuer: identity.issuer).map {
                    LinkedIdentity(provider: $0, linkedAt: identity.createdAt)
                }
            })
    }

    struct LinkRequest: Decodable {
        var provider: String
        var idToken: String
        var nonce: String?
    }

    /// Links the provider account an ID token proves to the signed-in user (the token is the proof, so the
    /// e-mail addresses need not match); one provider account belongs to one user.
    @Sendable func linkIdentity(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<LinkedIdentity>
    {
        let input = try await request.decode(as: LinkRequest.self, context: context)
        guard input.idToken.count <= 8192 else { throw Problem.invalidField("idToken", "is too long.") }
        let identity = try await verifier.verify(provider: input.provider, idToken: input.idToken, nonce: input.nonce)
        let now = clock.now
        let record = ExternalIdentityRecord(
            issuer: identity.issuer, subject: identity.subject, userId: context.user.userID, createdAt: now)
        switch try await database.linkIdentity(record) {
        case .linked:
            return EditedResponse(status: .created, response: LinkedIdentity(provider: input.provider, linkedAt: now))
        case .alreadyLinked:
            return EditedResponse(status: .ok, response: LinkedIdentity(provider: input.provider, linkedAt: now))
        case .linkedToAnotherAccount:
            throw Problem.conflict(
                "identity_linked_elsewhere", "This \(input.provider) account is linked to another account.")
        }
    }

    /// Unlinks a provider, unless it is the last way to sign in (no password and no other provider).
    @Sendable func unlinkIdentity(_ request: Request, context: AuthenticatedContext) async throws
        -> HTTPResponse.Status
    {
        let provider = try context.parameters.require("provider")
        guard let issuers = verifier.issuers(provider: provider) else {
            throw Problem.badRequest("unknown_provider", "provider: sign-in with '\(provider)' is not configured.")
        }
        switch try await database.unlinkIdentities(userID: context.user.userID, issuers: issuers) {
        case .unlinked: return .noContent
        case .notLinked: throw Problem.notFound("The linked \(provider) account")
        case .lastSignInMethod:
            throw Problem.conflict(
                "last_sign_in_method",
                "This is the only way to sign in to the account; set a password or link another provider first.")
        }
    }
}
