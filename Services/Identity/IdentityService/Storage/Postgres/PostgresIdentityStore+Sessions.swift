import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

// Sessions and their refresh tokens, and the ended sessions published for the revocation feed.
extension PostgresIdentityStore {
    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws {
        try await write { sql in
            try await sql.execute(
                """
                INSERT INTO sessions (\(unescaped: SessionRecord.postgresColumns))
                VALUES (\(session.id), \(session.userId), \(session.userAgent), \(session.createdAt),
                    \(session.lastUsedAt), \(session.revokedAt), \(session.revokeReason))
                """)
            try await sql.execute(
                """
                INSERT INTO refresh_tokens (token_hash, session_id, created_at)
                VALUES (\(refreshTokenHash), \(session.id), \(session.createdAt))
                """)
        }
    }

    func rotate(refreshTokenHash: String, chain: [String], lifetime: SessionLifetime, now: Date) async throws
        -> RefreshOutcome
    {
        // SERIALIZABLE: two replicas shown the same token at once cannot both take it for a first use; the one that
        // loses runs again and sees the rotation (the grace window's rule then applies).
        try await write { sql in
            guard
                let rotatedAt = try await sql.first(
                    "SELECT rotated_at FROM refresh_tokens WHERE token_hash = \(refreshTokenHash)",
                    { try $0.decode(Date?.self) }),
                var session = try await sql.first(
                    """
                    SELECT \(unescaped: SessionRecord.postgresColumns) FROM sessions
                    WHERE id = (SELECT session_id FROM refresh_tokens WHERE token_hash = \(refreshTokenHash))
                    """, SessionRecord.init(postgres:))
            else { return .invalid }
            if session.revokeReason == expiredSessionReason {
                return .expired(userID: session.userId, sessionID: session.id, endedNow: false)
            }
            guard session.revokedAt == nil,
                let user = try await sql.first(
                    "SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = \(session.userId)",
                    UserRecord.init(postgres:)),
                !chain.isEmpty
            else { return .invalid }
            if lifetime.hasExpired(createdAt: session.createdAt, lastUsedAt: session.lastUsedAt, now: now) {
                try await Self.end(sql, session: session.id, reason: expiredSessionReason, now: now)
                return .expired(userID: session.userId, sessionID: session.id, endedNow: true)
            }
            switch RefreshPolicy.decide(rotatedAt: rotatedAt, now: now) {
            case .reject:
                try await Self.end(sql, session: session.id, reason: "refresh_token_reused", now: now)
                return .reused(userID: session.userId, sessionID: session.id)
            case .rotate:
                try await sql.execute(
                    """
                    UPDATE refresh_tokens SET rotated_at = \(now)
                    WHERE token_hash = \(refreshTokenHash) AND rotated_at IS NULL
                    """)
            }
            // The first successor of the chain not yet rotated, and whether it is stored yet.
            var index = 0
            var stored = false
            while index < chain.count {
                guard
                    let next = try await sql.first(
                        "SELECT rotated_at FROM refresh_tokens WHERE token_hash = \(chain[index])",
                        { try $0.decode(Date?.self) })
                else { break }
                stored = true
                guard next != nil else { break }
                stored = false
                index += 1
            }
            // More rotations inside the grace window than the chain we were given: not a racing app.
            guard index < chain.count else { return .invalid }
            if !stored {
                try await sql.execute(
                    """
                    INSERT INTO refresh_tokens (token_hash, session_id, created_at)
                    VALUES (\(chain[index]), \(session.id), \(now))
                    """)
            }
            try await sql.execute(
                """
                UPDATE refresh_tokens SET rotated_at = \(now)
                WHERE session_id = \(session.id) AND rotated_at IS NULL AND token_hash <> \(chain[index])
                """)
            session.lastUsedAt = now
            try await sql.execute("UPDATE sessions SET last_used_at = \(now) WHERE id = \(session.id)")
            return .rotated(user, session, index: index)
        }
    }

    func liveRefreshTokenHashes(sessionID: String) async throws -> [String] {
        try await read { sql in
            try await sql.rows(
                """
                SELECT token_hash FROM refresh_tokens WHERE session_id = \(sessionID) AND rotated_at IS NULL
                ORDER BY token_hash COLLATE "C"
                """
            ).map { try $0.decode(String.self) }
        }
    }

    func revokeSession(id: String, userID: String, reason: String, now: Date) async throws -> Bool {
        let id = Self.cutAtNUL(id)
        return try await write { sql in
            let ended = try await sql.execute(
                """
                UPDATE sessions SET revoked_at = \(now), revoke_reason = \(reason)
                WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL
                RETURNING id
                """)
            guard ended > 0 else { return false }
            try await Self.recordRevocations(sql, [id], now: now)
            return true
        }
    }

    func revokeSessions(userID: String, keeping: String?, reason: String, now: Date) async throws -> [String] {
        try await write { sql in
            try await Self.revokeSessions(sql, userID: userID, keeping: keeping, reason: reason, now: now)
        }
    }

    static func revokeSessions(_ sql: PostgresSession, userID: String, keeping: String?, reason: String, now: Date)
        async throws -> [String]
    {
        let revoked = try await sql.rows(
            """
            UPDATE sessions SET revoked_at = \(now), revoke_reason = \(reason)
            WHERE user_id = \(userID) AND revoked_at IS NULL AND id IS DISTINCT FROM \(keeping)
            RETURNING id
            """
        ).map { try $0.decode(String.self) }
        try await recordRevocations(sql, revoked, now: now)
        return revoked
    }

    /// Ends one session now, published on the feed.
    private static func end(_ sql: PostgresSession, session id: String, reason: String, now: Date) async throws {
        try await sql.execute("UPDATE sessions SET revoked_at = \(now), revoke_reason = \(reason) WHERE id = \(id)")
        try await recordRevocations(sql, [id], now: now)
    }

    func activeSessions(userID: String, lifetime: SessionLifetime, now: Date) async throws -> [SessionRecord] {
        let (createdBefore, usedBefore) = lifetime.cutoffs(now: now)
        return try await read { sql in
            try await sql.rows(
                """
                SELECT \(unescaped: SessionRecord.postgresColumns) FROM sessions
                WHERE user_id = \(userID) AND revoked_at IS NULL AND created_at >= \(createdBefore)
                  AND last_used_at >= \(usedBefore)
                ORDER BY last_used_at DESC, id COLLATE "C"
                """
            ).map(SessionRecord.init(postgres:))
        }
    }

    func endExpiredSessions(lifetime: SessionLifetime, now: Date, limit: Int) async throws -> [String: [String]] {
        let (createdBefore, usedBefore) = lifetime.cutoffs(now: now)
        return try await write { sql in
            let rows = try await sql.rows(
                """
                UPDATE sessions SET revoked_at = \(now), revoke_reason = \(expiredSessionReason)
                WHERE revoked_at IS NULL AND id IN (
                    SELECT id FROM sessions WHERE revoked_at IS NULL AND created_at < \(createdBefore)
                    UNION
                    SELECT id FROM sessions WHERE revoked_at IS NULL AND last_used_at < \(usedBefore)
                    LIMIT \(limit))
                RETURNING id, user_id
                """
            ).map { try $0.decode((String, String).self) }
            try await Self.recordRevocations(sql, rows.map(\.0), now: now)
            return Dictionary(grouping: rows, by: \.1).mapValues { $0.map(\.0) }
        }
    }

    func deleteEndedSessions(endedBefore: Date, limit: Int) async throws -> Int {
        try await write { sql in
            try await sql.execute(
                """
                DELETE FROM sessions WHERE id IN (
                    SELECT id FROM sessions WHERE revoked_at IS NOT NULL AND revoked_at < \(endedBefore)
                    LIMIT \(limit))
                RETURNING 1
                """)
        }
    }

    // MARK: The revocation feed

    /// Publishes ended sessions in the transaction that ends them, so no reader of the feed can miss one, and tells
    /// every replica at commit.
    ///
    /// An identity column alone hands numbers out at insert time, and transactions commit in another order: a reader
    /// could see entry 7 before 6 commits and never ask for 6. So writers number their entries under one advisory
    /// lock held to their commit: numbers are given in commit order, and a reader that sees an entry has all before
    /// it. Entries an hour past their tokens' expiry are pruned, except the newest (its number is the feed's `last`).
    static func recordRevocations(_ sql: PostgresSession, _ sessionIDs: [String], now: Date) async throws {
        guard !sessionIDs.isEmpty else { return }
        let until = now.addingTimeInterval(TokenSigner.accessTokenLifetime)
        try await sql.execute("SELECT pg_advisory_xact_lock(\(revocationLock))")
        let numbers = try await sql.rows(
            """
            INSERT INTO session_revocations (session_id, expires_at)
            SELECT ended.id, \(until) FROM unnest(\(sessionIDs)::text[]) WITH ORDINALITY AS ended(id, position)
            ORDER BY ended.position
            RETURNING sequence
            """
        ).map { try $0.decode(Int64.self) }
        try await sql.execute(
            """
            DELETE FROM session_revocations
            WHERE expires_at < \(now.addingTimeInterval(-3600)) AND sequence < \(numbers.min() ?? 0)
            """)
        try await sql.notify(revocationChannel)
    }

    /// The advisory lock that orders the feed's writers (any number unused elsewhere in identity's database).
    static let revocationLock: Int64 = 4_946_752_000_001

    func revocations(after sequence: Int64?, now: Date, limit: Int) async throws -> SessionRevocationPage {
        try await read { sql in
            // The highest number first: every entry up to it has committed (see `recordRevocations`).
            let highest =
                try await sql.first("SELECT max(sequence) FROM session_revocations") { try $0.decode(Int64?.self) }
                .flatMap { $0 } ?? 0
            let rows: [PostgresRow]
            if let sequence {
                rows = try await sql.rows(
                    """
                    SELECT sequence, session_id, expires_at FROM session_revocations
                    WHERE sequence > \(sequence) AND sequence <= \(highest) ORDER BY sequence LIMIT \(limit)
                    """)
            } else {
                rows = try await sql.rows(
                    """
                    SELECT sequence, session_id, expires_at FROM session_revocations
                    WHERE expires_at > \(now) AND sequence <= \(highest) ORDER BY sequence
                    """)
            }
            let items = try rows.map {
                let (sequence, sessionID, until) = try $0.decode((Int64, String, Date).self)
                return SessionRevocation(sequence: sequence, sessionId: sessionID, until: until)
            }
            // A limited page ends at its last entry, so the next poll continues from there.
            let last = sequence != nil && items.count == limit ? items.last?.sequence ?? highest : highest
            return SessionRevocationPage(items: items, last: last)
        }
    }
}
