import Foundation
import GRDB
import PlatformKit

// Sessions and their refresh tokens.
extension SQLiteIdentityStore {
    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws {
        try await write { db in
            try session.insert(db)
            try RefreshTokenRecord(tokenHash: refreshTokenHash, sessionId: session.id, createdAt: session.createdAt)
                .insert(db)
        }
    }

    /// Rotates a refresh token, or detects its reuse (RefreshPolicy decides which), or ends its session when it is
    /// past `lifetime` (measured from the sign-in and from the latest rotation).
    ///
    /// `chain` holds the hashes of the presented token's successors (each derived from the one before, see
    /// ``RefreshTokenChain``). A first use stores `chain[0]`; a reuse within the grace window walks the chain to
    /// the successor not yet rotated and hands that out again, so the racing client joins the one live chain
    /// instead of starting a second. Any other unrotated token of the session is retired, keeping one chain.
    func rotate(refreshTokenHash: String, chain: [String], lifetime: SessionLifetime, now: Date) async throws
        -> RefreshOutcome
    {
        try await write { db in
            guard let token = try RefreshTokenRecord.fetchOne(db, key: refreshTokenHash),
                var session = try SessionRecord.fetchOne(db, key: token.sessionId)
            else { return .invalid }
            if session.revokeReason == expiredSessionReason {
                return .expired(userID: session.userId, sessionID: session.id, endedNow: false)
            }
            guard session.revokedAt == nil, let user = try UserRecord.fetchOne(db, key: session.userId),
                !chain.isEmpty
            else { return .invalid }
            if lifetime.hasExpired(createdAt: session.createdAt, lastUsedAt: session.lastUsedAt, now: now) {
                session.revokedAt = now
                session.revokeReason = expiredSessionReason
                try session.update(db)
                try Self.recordRevocations(db, [session.id], now: now)
                return .expired(userID: session.userId, sessionID: session.id, endedNow: true)
            }
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

    /// The user's sessions neither ended nor past `lifetime` at `now`, most recently used first.
    func activeSessions(userID: String, lifetime: SessionLifetime, now: Date) async throws -> [SessionRecord] {
        let (createdBefore, usedBefore) = lifetime.cutoffs(now: now)
        return try await read { db in
            try SessionRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM sessions
                        WHERE user_id = ? AND revoked_at IS NULL AND created_at >= ? AND last_used_at >= ?
                        ORDER BY last_used_at DESC
                        """),
                arguments: [userID, createdBefore, usedBefore])
        }
    }

    /// Ends up to `limit` sessions past `lifetime` at `now`, publishing them on the revocation feed; returns their ids
    /// by user.
    func endExpiredSessions(lifetime: SessionLifetime, now: Date, limit: Int) async throws -> [String: [String]] {
        let (createdBefore, usedBefore) = lifetime.cutoffs(now: now)
        return try await write { db in
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        UPDATE sessions SET revoked_at = ?, revoke_reason = ?
                        WHERE id IN (
                            SELECT id FROM sessions WHERE revoked_at IS NULL AND created_at < ?
                            UNION
                            SELECT id FROM sessions WHERE revoked_at IS NULL AND last_used_at < ?
                            LIMIT ?)
                        RETURNING id, user_id
                        """),
                arguments: [now, expiredSessionReason, createdBefore, usedBefore, limit])
            try Self.recordRevocations(db, rows.map { $0["id"] }, now: now)
            return Dictionary(grouping: rows, by: { $0["user_id"] as String }).mapValues { $0.map { $0["id"] } }
        }
    }

    /// Deletes up to `limit` sessions that ended before `endedBefore`, with their refresh tokens; returns how many.
    func deleteEndedSessions(endedBefore: Date, limit: Int) async throws -> Int {
        try await write { db in
            try db.cachedStatement(
                sql: """
                    DELETE FROM sessions WHERE id IN (
                        SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at < ? LIMIT ?)
                    """
            ).execute(arguments: [endedBefore, limit])
            return db.changesCount
        }
    }
}
