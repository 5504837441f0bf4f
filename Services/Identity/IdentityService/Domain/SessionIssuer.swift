import Foundation

/// The secrets of sessions: a new session's record and first refresh token, the successors a presented refresh
/// token may be rotated to, and the signed access token that goes with them. Storage is the caller's.
struct SessionIssuer: Sendable {
    let signer: TokenSigner
    let chain: RefreshTokenChain

    /// A session about to be stored, with its first refresh token (shown once; only its hash is stored).
    struct NewSession: Sendable {
        var record: SessionRecord
        var refreshToken: String
        var refreshTokenHash: String { OpaqueToken.hash(refreshToken) }
    }

    /// A new session (a device signing in) for `userID`.
    func start(userID: String, userAgent: String?, now: Date) -> NewSession {
        NewSession(
            record: SessionRecord(
                id: UUID().uuidString.lowercased(), userId: userID, userAgent: userAgent.map { String($0.prefix(200)) },
                createdAt: now, lastUsedAt: now),
            refreshToken: OpaqueToken.generate())
    }

    /// The tokens that may replace `refreshToken`, nearest first (see ``RefreshTokenChain``).
    func successors(of refreshToken: String) -> [String] {
        chain.successors(of: refreshToken)
    }

    /// What a signed-in device holds: a short-lived access token, and the refresh token to get the next one.
    struct Credentials: Sendable, Equatable {
        var accessToken: String
        /// Seconds until the access token expires.
        var expiresIn: Int
        var refreshToken: String
        var sessionID: String
    }

    /// Signs the access token of `user`'s session `sessionID`, to go with `refreshToken`.
    func credentials(for user: UserRecord, sessionID: String, refreshToken: String, now: Date) async throws
        -> Credentials
    {
        Credentials(
            accessToken: try await signer.accessToken(
                userID: user.id, sessionID: sessionID, roles: user.roleList, needsUsername: user.username == nil,
                now: now),
            expiresIn: Int(TokenSigner.accessTokenLifetime), refreshToken: refreshToken, sessionID: sessionID)
    }

    /// The credentials of a session just started for `user`.
    func credentials(for user: UserRecord, session: NewSession, now: Date) async throws -> Credentials {
        try await credentials(for: user, sessionID: session.record.id, refreshToken: session.refreshToken, now: now)
    }
}
