import Foundation
import PlatformKit

/// Starts sessions and rotates their refresh tokens, handing out token pairs.
struct SessionIssuer: Sendable {
    let database: IdentityDatabase
    let signer: TokenSigner
    let clock: WallClock
    let endedSessions: any EndedSessionSink
    let chain: RefreshTokenChain

    /// Starts a new session (a device signing in) for `user`.
    func start(for user: UserRecord, userAgent: String?) async throws -> TokenPair {
        let now = clock.now
        let session = SessionRecord(
            id: UUID().uuidString.lowercased(), userId: user.id, userAgent: userAgent.map { String($0.prefix(200)) },
            createdAt: now, lastUsedAt: now)
        let refreshToken = OpaqueToken.generate()
        try await database.createSession(session, refreshTokenHash: OpaqueToken.hash(refreshToken))
        return try await pair(user: user, sessionID: session.id, refreshToken: refreshToken, now: now)
    }

    /// Exchanges a refresh token for a new pair (rotation); a reused token revokes its session.
    func refresh(_ refreshToken: String) async throws -> TokenPair {
        let now = clock.now
        let successors = chain.successors(of: refreshToken)
        switch try await database.rotate(
            refreshTokenHash: OpaqueToken.hash(refreshToken), chain: successors.map(OpaqueToken.hash), now: now)
        {
        case .rotated(let user, let session, let index):
            return try await pair(user: user, sessionID: session.id, refreshToken: successors[index], now: now)
        case .invalid:
            throw Problem.unauthorized("invalid_refresh_token", "The refresh token is not valid; sign in again.")
        case .reused(let userID, let sessionID):
            await endedSessions.sessionsEnded(userID: userID, sessionIDs: [sessionID])
            throw Problem.unauthorized(
                "refresh_token_reused", "This refresh token was already used; the session has been signed out.")
        }
    }

    private func pair(user: UserRecord, sessionID: String, refreshToken: String, now: Date) async throws -> TokenPair {
        let accessToken = try await signer.accessToken(
            userID: user.id, sessionID: sessionID, roles: user.roleList, now: now)
        return TokenPair(
            accessToken: accessToken, tokenType: "Bearer", expiresIn: Int(TokenSigner.accessTokenLifetime),
            refreshToken: refreshToken, sessionId: sessionID, user: MyProfile(user))
    }
}

/// The rate limiters of sign-in and recovery, keyed by account and by client address.
struct RateLimits: Sendable {
    let loginFailuresByAccount: RateLimiter
    let loginsByAddress: RateLimiter
    let resetsByAccount: RateLimiter
    let resetsByAddress: RateLimiter
    let registrationsByAddress: RateLimiter

    init(_ limits: IdentityRateLimits, clock: WallClock) {
        loginFailuresByAccount = RateLimiter(capacity: limits.loginFailuresPerAccount, period: 15 * 60, clock: clock)
        loginsByAddress = RateLimiter(capacity: limits.loginsPerAddress, period: 60, clock: clock)
        resetsByAccount = RateLimiter(capacity: limits.resetsPerAccount, period: 3600, clock: clock)
        resetsByAddress = RateLimiter(capacity: limits.resetsPerAddress, period: 3600, clock: clock)
        registrationsByAddress = RateLimiter(capacity: limits.registrationsPerAddress, period: 3600, clock: clock)
    }
}
