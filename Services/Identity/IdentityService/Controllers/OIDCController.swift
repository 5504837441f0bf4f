import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// "Sign in with Google/Facebook": the app asks here for a nonce, obtains from the provider an ID token carrying it,
/// and exchanges the token (or links it from settings) here, once.
struct OIDCController {
    let store: any IdentityStore
    let sessions: SessionIssuer
    let clock: WallClock
    let verifier: OIDCVerifier
    let limits: RateLimits

    func addRoutes(public router: RouterGroup<ServiceRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(IdentityPaths.oidcNonce), use: issueNonce)
        router.post(RouterPath(IdentityPaths.oidc), use: exchange)
        signedIn.get(RouterPath(IdentityPaths.identities), use: listIdentities)
        signedIn.post(RouterPath(IdentityPaths.identities), use: linkIdentity)
        signedIn.delete(RouterPath(IdentityPaths.identities + "/:provider"), use: unlinkIdentity)
    }

    struct NonceReply: ResponseEncodable, Sendable {
        var nonce: String
        var expiresAt: Date
    }

    /// A nonce for one sign-in or link (``OIDCNonce``), rate limited per client address like the other public
    /// sign-in routes.
    @Sendable func issueNonce(_ request: Request, context: ServiceRequestContext) async throws
        -> EditedResponse<NonceReply>
    {
        try limits.noncesByAddress.enforce(context.clientKey(request))
        let now = clock.now
        let nonce = OIDCNonce.issue(now: now)
        try await store.storeNonce(nonce, now: now)
        return EditedResponse(status: .created, response: NonceReply(nonce: nonce.value, expiresAt: nonce.expiresAt))
    }

    /// An ID token, for signing in or linking.
    struct IDTokenRequest: Decodable {
        /// The configured provider name, e.g. `google`.
        var provider: String
        var idToken: String
        /// The nonce from ``issueNonce(_:context:)`` the app put into the authorization request.
        var nonce: String
    }

    /// The identity an ID token proves: the token checked against its provider, then its nonce used up, so the same
    /// token never signs in or links twice.
    private func verifiedOnce(provider: String, idToken: String, nonce: String) async throws -> ExternalIdentity {
        guard idToken.count <= 8192 else { throw Problem.invalidField("idToken", "is too long.") }
        let identity = try await verifier.verify(provider: provider, idToken: idToken, nonce: nonce)
        guard let hash = OIDCNonce.lookupHash(of: nonce), try await store.consumeNonce(hash: hash, now: clock.now)
        else { throw IdentityError.invalidNonce }
        return identity
    }

    /// Signs in the account linked to the provider's subject, links an existing account with the same
    /// verified e-mail, or creates an account (which then chooses a username).
    @Sendable func exchange(_ request: Request, context: ServiceRequestContext) async throws -> TokenPair {
        let input = try await request.decode(as: IDTokenRequest.self, context: context)
        let identity = try await verifiedOnce(provider: input.provider, idToken: input.idToken, nonce: input.nonce)
        let now = clock.now
        let user = try await store.account(for: identity, now: now)
        let session = sessions.start(userID: user.id, userAgent: request.headers[.userAgent], now: now)
        try await store.createSession(session.record, refreshTokenHash: session.refreshTokenHash)
        return TokenPair(try await sessions.credentials(for: user, session: session, now: now), user: user)
    }

    // MARK: Linking from settings

    struct LinkedIdentity: ResponseEncodable, Sendable {
        var provider: String
        var linkedAt: Date
    }

    @Sendable func listIdentities(_ request: Request, context: AuthenticatedContext) async throws
        -> Page<LinkedIdentity>
    {
        let linked = try await store.externalIdentities(userID: context.user.userID)
        return try request.page(
            of: linked.compactMap { identity in
                verifier.providerName(issuer: identity.issuer).map {
                    LinkedIdentity(provider: $0, linkedAt: identity.createdAt)
                }
            })
    }

    /// Links the provider account an ID token proves to the signed-in user (the token is the proof, so the
    /// e-mail addresses need not match); one provider account belongs to one user.
    @Sendable func linkIdentity(_ request: Request, context: AuthenticatedContext) async throws
        -> EditedResponse<LinkedIdentity>
    {
        let input = try await request.decode(as: IDTokenRequest.self, context: context)
        let identity = try await verifiedOnce(provider: input.provider, idToken: input.idToken, nonce: input.nonce)
        let now = clock.now
        let record = ExternalIdentityRecord(
            issuer: identity.issuer, subject: identity.subject, userId: context.user.userID, createdAt: now)
        switch try await store.linkIdentity(record) {
        case .linked:
            return EditedResponse(status: .created, response: LinkedIdentity(provider: input.provider, linkedAt: now))
        case .alreadyLinked:
            return EditedResponse(status: .ok, response: LinkedIdentity(provider: input.provider, linkedAt: now))
        case .linkedToAnotherAccount:
            throw IdentityError.identityLinkedElsewhere(provider: input.provider)
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
        switch try await store.unlinkIdentities(userID: context.user.userID, issuers: issuers) {
        case .unlinked: return .noContent
        case .notLinked: throw IdentityError.notFound("The linked \(provider) account")
        case .lastSignInMethod: throw IdentityError.lastSignInMethod
        }
    }
}
