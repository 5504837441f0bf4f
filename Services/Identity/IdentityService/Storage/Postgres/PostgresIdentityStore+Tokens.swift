import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

// Password changes and resets, e-mail verification, the codes mailed with both, and OpenID nonces. Every token is
// used at most once: the writes that use one run SERIALIZABLE (see `PostgresIdentityStore`).
extension PostgresIdentityStore {
    func changePassword(userID: String, hash: String, keepingSession: String?, notice: MailMessage?, now: Date)
        async throws -> [String]
    {
        try await write { sql in
            try await sql.execute("UPDATE users SET password_hash = \(hash), updated_at = \(now) WHERE id = \(userID)")
            let revoked = try await Self.revokeSessions(
                sql, userID: userID, keeping: keepingSession, reason: "password_changed", now: now)
            if let notice { try await Self.enqueue(sql, notice, now: now) }
            return revoked
        }
    }

    func createResetToken(_ token: PasswordResetTokenRecord, mail: MailMessage) async throws {
        try await write { sql in
            try await sql.execute(
                """
                INSERT INTO password_reset_tokens
                    (token_hash, user_id, created_at, expires_at, used_at, code_hash, code_attempts)
                VALUES (\(token.tokenHash), \(token.userId), \(token.createdAt), \(token.expiresAt), \(token.usedAt),
                    \(token.codeHash), \(token.codeAttempts))
                """)
            try await Self.enqueue(sql, mail, now: token.createdAt)
        }
    }

    func resetPassword(tokenHash: String, userID: String, passwordHash: String, notice: MailMessage?, now: Date)
        async throws -> [String]?
    {
        try await write { sql in
            let usable = try await sql.execute(
                """
                SELECT 1 FROM password_reset_tokens
                WHERE token_hash = \(tokenHash) AND used_at IS NULL AND expires_at > \(now) AND user_id = \(userID)
                """)
            guard usable > 0 else { return nil }
            try await sql.execute(
                "UPDATE password_reset_tokens SET used_at = \(now) WHERE user_id = \(userID) AND used_at IS NULL")
            try await sql.execute(
                "UPDATE users SET password_hash = \(passwordHash), updated_at = \(now) WHERE id = \(userID)")
            let revoked = try await Self.revokeSessions(
                sql, userID: userID, keeping: nil, reason: "password_reset", now: now)
            if let notice { try await Self.enqueue(sql, notice, now: now) }
            return revoked
        }
    }

    func userForResetToken(tokenHash: String, now: Date) async throws -> UserRecord? {
        try await read { sql in
            try await sql.first(
                """
                SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = (
                    SELECT user_id FROM password_reset_tokens
                    WHERE token_hash = \(tokenHash) AND used_at IS NULL AND expires_at > \(now))
                """, UserRecord.init(postgres:))
        }
    }

    // MARK: E-mail verification

    func createVerificationToken(_ token: EmailVerificationTokenRecord, mail: MailMessage) async throws {
        try await write { sql in
            try await Self.insert(sql, token)
            try await Self.enqueue(sql, mail, now: token.createdAt)
        }
    }

    static func insert(_ sql: PostgresSession, _ token: EmailVerificationTokenRecord) async throws {
        try await sql.execute(
            """
            INSERT INTO email_verification_tokens (token_hash, user_id, email, created_at, expires_at, used_at,
                code_hash, code_attempts, changes_email)
            VALUES (\(token.tokenHash), \(token.userId), \(token.email), \(token.createdAt), \(token.expiresAt),
                \(token.usedAt), \(token.codeHash), \(token.codeAttempts), \(token.changesEmail))
            """)
    }

    func verifyEmail(tokenHash: String, now: Date) async throws -> UserRecord? {
        try await write { sql in
            guard
                let token = try await Self.verificationToken(sql, tokenHash: tokenHash, now: now),
                var user = try await sql.first(
                    "SELECT \(unescaped: UserRecord.postgresColumns) FROM users WHERE id = \(token.userId)",
                    UserRecord.init(postgres:))
            else { return nil }
            if token.changesEmail, user.email?.lowercased() != token.email.lowercased() {
                guard try await Self.emailOwner(sql, token.email) == nil else { return nil }
                if let old = user.email {
                    try await Self.enqueue(sql, IdentityMail.emailChanged(to: old, newAddress: token.email), now: now)
                }
                user.email = token.email
            }
            guard user.email?.lowercased() == token.email.lowercased() else { return nil }
            try await sql.execute(
                """
                UPDATE email_verification_tokens SET used_at = \(now) WHERE user_id = \(user.id) AND used_at IS NULL
                """)
            user.emailVerified = true
            user.updatedAt = now
            try await Self.update(sql, user)
            return user
        }
    }

    func verificationTokenIsUsable(tokenHash: String, now: Date) async throws -> Bool {
        try await read { sql in
            guard let token = try await Self.verificationToken(sql, tokenHash: tokenHash, now: now),
                let email = try await sql.first(
                    "SELECT email FROM users WHERE id = \(token.userId)", { try $0.decode(String?.self) })
            else { return false }
            return token.changesEmail || email?.lowercased() == token.email.lowercased()
        }
    }

    func emailBelongsToAnotherAccount(_ email: String, userID: String) async throws -> Bool {
        let email = Self.cutAtNUL(email)
        return try await read { sql in
            guard let owner = try await Self.emailOwner(sql, email) else { return false }
            return owner != userID
        }
    }

    /// The verification token with this hash, if it is unused and unexpired at `now`.
    private static func verificationToken(_ sql: PostgresSession, tokenHash: String, now: Date) async throws
        -> (userId: String, email: String, changesEmail: Bool)?
    {
        try await sql.first(
            """
            SELECT user_id, email, changes_email FROM email_verification_tokens
            WHERE token_hash = \(tokenHash) AND used_at IS NULL AND expires_at > \(now)
            """
        ) { row in
            let (userId, email, changesEmail) = try row.decode((String, String, Bool).self)
            return (userId: userId, email: email, changesEmail: changesEmail)
        }
    }

    // MARK: Mailed codes

    func resetTokenHash(email: String, code: String, now: Date) async throws -> String? {
        let email = Self.cutAtNUL(email)
        return try await write { sql in
            let newest = try await sql.first(
                """
                SELECT token_hash, code_hash, code_attempts FROM password_reset_tokens
                WHERE user_id IN (SELECT id FROM users WHERE lower(email COLLATE "C") = lower(\(email) COLLATE "C"))
                  AND used_at IS NULL AND expires_at > \(now) AND code_hash IS NOT NULL
                ORDER BY created_at DESC LIMIT 1
                """, MailedToken.init)
            return try await Self.spendCode(sql, table: "password_reset_tokens", code: code, on: newest, now: now)
        }
    }

    func verificationTokenHash(email: String, code: String, now: Date) async throws -> String? {
        let email = Self.cutAtNUL(email)
        return try await write { sql in
            let newest = try await sql.first(
                """
                SELECT token_hash, code_hash, code_attempts FROM email_verification_tokens
                WHERE email = \(email) AND used_at IS NULL AND expires_at > \(now) AND code_hash IS NOT NULL
                ORDER BY created_at DESC LIMIT 1
                """, MailedToken.init)
            return try await Self.spendCode(sql, table: "email_verification_tokens", code: code, on: newest, now: now)
        }
    }

    /// The columns of a mailed token a code is checked against.
    private struct MailedToken {
        var tokenHash: String
        var codeHash: String?
        var codeAttempts: Int

        init(_ row: PostgresRow) throws {
            (tokenHash, codeHash, codeAttempts) = try row.decode((String, String?, Int).self)
        }
    }

    /// Only the newest token's code counts. A right code answers the token's hash (the caller then uses the token as
    /// if its link was opened); a wrong one is counted, and at `MailCode.maximumTries` the token is spent.
    private static func spendCode(_ sql: PostgresSession, table: StaticString, code: String, on token: MailedToken?, now: Date)
        async throws -> String?
    {
        guard let token else { return nil }
        if MailCode.matches(code, storedHash: token.codeHash, tokenHash: token.tokenHash) { return token.tokenHash }
        let attempts = token.codeAttempts + 1
        let usedAt: Date? = attempts >= MailCode.maximumTries ? now : nil
        try await sql.execute(
            """
            UPDATE \(unescaped: "\(table)") SET code_attempts = \(attempts), used_at = \(usedAt)
            WHERE token_hash = \(token.tokenHash)
            """)
        return nil
    }

    // MARK: OpenID nonces

    func storeNonce(_ nonce: OIDCNonce, now: Date) async throws {
        try await write { sql in
            try await sql.execute("DELETE FROM oidc_nonces WHERE expires_at <= \(now)")
            try await sql.execute(
                "INSERT INTO oidc_nonces (nonce_hash, expires_at) VALUES (\(nonce.hash), \(nonce.expiresAt))")
        }
    }

    func consumeNonce(hash: String, now: Date) async throws -> Bool {
        // One statement: of two replicas deleting the same row, the second finds it gone.
        try await write(isolation: .readCommitted) { sql in
            try await sql.execute(
                "DELETE FROM oidc_nonces WHERE nonce_hash = \(hash) AND expires_at > \(now) RETURNING 1") > 0
        }
    }

    func pruneNonces(now: Date) async throws -> Int {
        try await write(isolation: .readCommitted) { sql in
            try await sql.execute("DELETE FROM oidc_nonces WHERE expires_at <= \(now) RETURNING 1")
        }
    }
}
