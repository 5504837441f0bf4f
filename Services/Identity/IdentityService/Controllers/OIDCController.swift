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
        let now = clock.now
        let user = try await database.account(for: identity, now: now)
        let session = sessions.start(userID: user.id, userAgent: request.headers[.userAgent], now: now)
        try await database.createSession(session.record, refreshTokenHash: session.refreshTokenHash)
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
        let linked = try await database.externalIdentities(userID: context.user.userID)
        return try request.page(
            of: linked.compactMap { identity in
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
        switch try await database.unlinkIdentities(userID: context.user.userID, issuers: issuers) {
        case .unlinked: return .noContent
        case .notLinked: throw IdentityError.notFound("The linked \(provider) account")
        case .lastSignInMethod: throw IdentityError.lastSignInMethod
        }
    }
}
