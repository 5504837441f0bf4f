import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Sign-up, sign-in, token refresh, sign-out and the signed-in user's sessions.
struct AuthController {
    let store: any IdentityStore
    let hasher: PasswordHasher
    let sessions: SessionIssuer
    let limits: RateLimits
    let signer: TokenSigner
    let clock: WallClock
    let endedSessions: any EndedSessionSink
    let outbox: OutboxDelivery
    let verifications: EmailVerifications
    let sessionLifetime: SessionLifetime

    func addRoutes(public router: RouterGroup<ServiceRequestContext>, signedIn: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(IdentityPaths.register), use: register)
        router.post(RouterPath(IdentityPaths.login), use: login)
        router.post(RouterPath(IdentityPaths.refresh), use: refresh)
        router.get(RouterPath(IdentityPaths.jwks), use: jwks)
        signedIn.post(RouterPath(IdentityPaths.logout), use: logout)
        signedIn.post(RouterPath(IdentityPaths.logoutAll), use: logoutAll)
        signedIn.get(RouterPath(IdentityPaths.sessions), use: listSessions)
        signedIn.delete(RouterPath(IdentityPaths.sessions + "/:id"), use: revokeSession)
    }

    struct RegisterRequest: Decodable {
        var email: String
        var username: String?
        var password: String
        var displayName: String?
    }

    @Sendable func register(_ request: Request, context: ServiceRequestContext) async throws
        -> EditedResponse<TokenPair>
    {
        let input = try await request.decode(as: RegisterRequest.self, context: context)
        let email = try Validate.email(input.email)
        let username = try input.username.map { try Validate.username($0) }
        let displayName = try Validate.optionalText(input.displayName, field: "displayName", max: 50)
        try PasswordPolicy.check(input.password, username: username, email: email)
        try limits.registrationsByAddress.enforce(context.clientKey(request))
        let now = clock.now
        let user = UserRecord(
            id: UUID().uuidString.lowercased(), email: email, emailVerified: false, username: username,
            passwordHash: try await hasher.hash(input.password), displayName: displayName ?? username ?? "", bio: "",
            homeCity: "", roles: "", avatarEtag: nil, createdAt: now, updatedAt: now)
        try await store.createUser(user, verification: verifications.make(userID: user.id, email: email, now: now))
        outbox.wakeUp()
        return EditedResponse(status: .created, response: try await signIn(user, request, now: now))
    }

    struct LoginRequest: Decodable {
        /// A username or an e-mail address.
        var identifier: String
        var password: String
    }

    @Sendable func login(_ request: Request, context: ServiceRequestContext) async throws -> TokenPair {
        let input = try await request.decode(as: LoginRequest.self, context: context)
        let identifier = input.identifier.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !identifier.isEmpty, identifier.count <= 254, !input.password.isEmpty, input.password.utf8.count <= 1024
        else { throw Problem.badRequest("invalid_credentials_format", "identifier and password are required.") }
        try limits.loginsByAddress.enforce(context.clientKey(request))
        if let seconds = limits.loginFailuresByAccount.retryAfter(identifier) {
            throw Problem.tooManyRequests(
                retryAfter: seconds, "Too many failed sign-ins for this account; try again later.")
        }
        let user = try await store.user(identifier: identifier)
        let verified: Bool
        if let hash = user?.passwordHash {
            verified = try await hasher.verify(input.password, hash: hash)
        } else {
            try await hasher.spendVerificationTime(input.password)
            verified = false
        }
        guard verified, let user else {
            limits.loginFailuresByAccount.record(identifier)
            throw IdentityError.invalidCredentials
        }
        return try await signIn(user, request, now: clock.now)
    }

    /// Starts a session for `user` on the requesting device and answers with its tokens.
    private func signIn(_ user: UserRecord, _ request: Request, now: Date) async throws -> TokenPair {
        let session = sessions.start(userID: user.id, userAgent: request.headers[.userAgent], now: now)
        try await store.createSession(session.record, refreshTokenHash: session.refreshTokenHash)
        return TokenPair(try await sessions.credentials(for: user, session: session, now: now), user: user)
    }

    struct RefreshRequest: Decodable {
        var refreshToken: String
    }

    @Sendable func refresh(_ request: Request, context: ServiceRequestContext) async throws -> TokenPair {
        let input = try await request.decode(as: RefreshRequest.self, context: context)
        guard !input.refreshToken.isEmpty, input.refreshToken.count <= 256 else {
            throw IdentityError.invalidRefreshToken
        }
        let now = clock.now
        let successors = sessions.successors(of: input.refreshToken)
        switch try await store.rotate(
            refreshTokenHash: OpaqueToken.hash(input.refreshToken), chain: successors.map(OpaqueToken.hash),
            lifetime: sessionLifetime, now: now)
        {
        case .rotated(let user, let session, let index):
            return TokenPair(
                try await sessions.credentials(
                    for: user, sessionID: session.id, refreshToken: successors[index], now: now),
                user: user)
        case .invalid:
            throw IdentityError.invalidRefreshToken
        case .reused(let userID, let sessionID):
            await endedSessions.sessionsEnded(userID: userID, sessionIDs: [sessionID])
            throw IdentityError.refreshTokenReused
        case .expired(let userID, let sessionID, let endedNow):
            if endedNow { await endedSessions.sessionsEnded(userID: userID, sessionIDs: [sessionID]) }
            throw IdentityError.sessionExpired
        }
    }

    @Sendable func jwks(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/jwk-set+json", .cacheControl: "public, max-age=300"],
            body: .init(byteBuffer: ByteBuffer(bytes: signer.jwksDocument)))
    }

    /// Ends the session the access token belongs to; its refresh and access tokens stop working at once
    /// (the gateway and the services learn it from the revocation feed within a second).
    @Sendable func logout(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        if try await store.revokeSession(
            id: context.user.sessionID, userID: context.user.userID, reason: "logout", now: clock.now)
        {
            await endedSessions.sessionsEnded(userID: context.user.userID, sessionIDs: [context.user.sessionID])
        }
        return .noContent
    }

    @Sendable func logoutAll(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let revoked = try await store.revokeSessions(
            userID: context.user.userID, keeping: nil, reason: "logout_all", now: clock.now)
        await endedSessions.sessionsEnded(userID: context.user.userID, sessionIDs: revoked)
        return .noContent
    }

    struct SessionSummary: ResponseEncodable, Sendable {
        var id: String
        var userAgent: String?
        var createdAt: Date
        var lastUsedAt: Date
        var current: Bool
    }

    @Sendable func listSessions(_ request: Request, context: AuthenticatedContext) async throws -> Page<SessionSummary>
    {
        let sessions = try await store.activeSessions(
            userID: context.user.userID, lifetime: sessionLifetime, now: clock.now)
        return try request.page(
            of: sessions.map {
                SessionSummary(
                    id: $0.id, userAgent: $0.userAgent, createdAt: $0.createdAt, lastUsedAt: $0.lastUsedAt,
                    current: $0.id == context.user.sessionID)
            })
    }

    @Sendable func revokeSession(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status
    {
        let id = try context.parameters.require("id")
        guard try await store.revokeSession(id: id, userID: context.user.userID, reason: "revoked", now: clock.now)
        else { throw IdentityError.notFound("The session") }
        await endedSessions.sessionsEnded(userID: context.user.userID, sessionIDs: [id])
        return .noContent
    }
}
