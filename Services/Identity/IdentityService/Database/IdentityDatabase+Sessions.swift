import Foundation
import GRDB
import PlatformKit

// Sessions and their refresh tokens.
extension IdentityDatabase {
    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws {
        try await write { db in
            try session.insert(db)
            try RefreshTokenRecord(tokenHash: refreshTokenHash, sessionId: session.id, createdAt: session.createdAt)
                .insert(db)
        }
    }

    /// What presenting a refresh token led to.
    enum RefreshOutcome: Sendable {
        /// Valid: the chain moved on; the token to hand out is `chain[index]` (see ``rotate(refreshTokenHash:chain:now:)``).
        case rotated(UserRecord, SessionRecord, index: Int)
        /// Unknown, or its session was revoked or ended.
        case invalid
        /// Already rotated outside the grace window: the session has now been revoked.
        case reused(userID: String, sessionID: String)
    }

    /// Rotates a refresh token, or detects its reuse (RefreshPolicy decides which).
    ///
    /// `chain` holds the hashes of the presented token's successors (each derived from the one before, see
    /// ``RefreshTokenChain``). A first use stores `chain[0]`; a reuse within the grace window walks the chain to
    /// the successor not yet rotated and hands that out again, so the racing client joins the one live chain
    /// instead of starting a second. Any other unrotated token of the session is retired, keeping one chain.
    func rotate(refreshTokenHash: String, chain: [String], now: Date) async throws -> RefreshOutcome {
        try await write { db in
            guard let token = try RefreshTokenRecord.fetchOne(db, key: refreshTokenHash),
                var session = try SessionRecord.fetchOne(db, key: token.sessionId), session.revokedAt == nil,
                let user = try UserRecord.fetchOne(db, key: session.userId), !chain.isEmpty
            else { return .invalid }
            switch RefreshPolicy.decide(rotatedAt: token.rotatedAt, now: now) {
            case .reject:
                session.revokedAt = now
                session.revokeReason = "refresh_token_reused"
                try session.update(db)
                try Self.recordRevocations(db, [session.id], now: now)
                return .reused(userID: session.userId, sessionID: session.id)
            case .rotate:
                try db.execute(
                    sql: "UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL",
                    arguments: [now, refreshTokenHash])
            }
            var index = 0
            while index < chain.count, let next = try RefreshTokenRecord.fetchOne(db, key: chain[index]),
                next.rotatedAt != nil
            {
                index += 1
            }
            // More rotations inside the grace window than the chain we were given: not a racing app.
            guard index < chain.count else { return .invalid }
            if try !RefreshTokenRecord.exists(db, key: chain[index]) {
                try RefreshTokenRecord(tokenHash: chain[index], sessionId: session.id, createdAt: now).insert(db)
            }
            try db.execute(
                sql: """
                    UPDATE refresh_tokens SET rotated_at = ?
                    WHERE session_id = ? AND rotated_at IS NULL AND token_hash != ?
                    """,
                arguments: [now, session.id, chain[index]])
            session.lastUsedAt = now
            try session.update(db)
            return .rotated(user, session, index: index)
        }
    }

    /// The hashes of the session's refresh tokens not yet rotated (one, unless the chain forked).
    func liveRefreshTokenHashes(sessionID: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT token_hash FROM refresh_tokens WHERE session_id = ? AND rotated_at IS NULL"),
                arguments: [sessionID])
        }
    }

    /// Revokes one of the user's sessions; `false` if the user has no such active session.
    func revokeSession(id: String, userID: String, reason: String, now: Date) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: """
                    UPDATE sessions SET revoked_at = ?, revoke_reason = ?
                    WHERE id = ? AND user_id = ? AND revoked_at IS NULL
                    """,
                arguments: [now, reason, id, userID])
            guard db.changesCount > 0 else { return false }
            try Self.recordRevocations(db, [id], now: now)
            return true
        }
    }

    /// Revokes every active session of the user except `keeping`; returns the revoked sessions' ids.
    func revokeSessions(userID: String, keeping: String?, reason: String, now: Date) async throws -> [String] {
        try await write { db in
            try Self.revokeSessions(db, userID: userID, keeping: keeping, reason: reason, now: now)
        }
    }

    static func revokeSessions(_ db: Database, userID: String, keeping: String?, reason: String, now: Date)
        throws -> [String]
    {
        let revoked = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    UPDATE sessions SET revoked_at = ?, revoke_reason = ?
                    WHERE user_id = ? AND revoked_at IS NULL AND id IS NOT ?
                    RETURNING id
                    """), arguments: [now, reason, userID, keeping])
        try recordRevocations(db, revoked, now: now)
        return revoked
    }

    func activeSessions(userID: String) async throws -> [SessionRecord] {
        try await read { db in
            try SessionRecord.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM sessions WHERE user_id = ? AND revoked_at IS NULL ORDER BY last_used_at DESC"),
                arguments: [userID])
        }
    }
}
