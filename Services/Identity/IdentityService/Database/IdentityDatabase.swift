import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The identity service's storage: the only place that knows SQL. Each method is one transaction.
struct IdentityDatabase: Sendable {
    private let writer: any DatabaseWriter

    init(_ location: DatabaseLocation) throws {
        self.writer = try ServiceDatabase.open(location, migrator: IdentityMigrations.migrator)
    }

    /// For the readiness probe.
    var reader: any DatabaseReader { writer }

    // MARK: Users

    /// Inserts a new user; a taken username or e-mail is a 409 problem naming which.
    func createUser(_ user: UserRecord, verification: (token: EmailVerificationTokenRecord, mail: MailMessage)? = nil)
        async throws
    {
        try await writer.write { db in
            try Self.checkAvailable(db, username: user.username, email: user.email, except: nil)
            try user.insert(db)
            if let verification {
                try verification.token.insert(db)
                try Self.enqueue(db, verification.mail, now: verification.token.createdAt)
            }
        }
    }

    func user(id: String) async throws -> UserRecord? {
        try await writer.read { db in try UserRecord.fetchOne(db, key: id) }
    }

    /// The user an e-mail address or username designates.
    func user(identifier: String) async throws -> UserRecord? {
        try await writer.read { db in
            if identifier.contains("@") {
                return try UserRecord.filter(UserRecord.Columns.email == identifier).fetchOne(db)
            }
            return try UserRecord.filter(UserRecord.Columns.username == identifier).fetchOne(db)
        }
    }

    func users(ids: [String]) async throws -> [UserRecord] {
        try await writer.read { db in try UserRecord.fetchAll(db, keys: ids) }
    }

    /// Applies a profile change; a username already taken is a 409 problem.
    func updateUser(id: String, now: Date, _ change: @Sendable @escaping (inout UserRecord) -> Void) async throws
        -> UserRecord
    {
        try await writer.write { db in
            guard var user = try UserRecord.fetchOne(db, key: id) else { throw Problem.notFound("The user") }
            let before = user
            change(&user)
            if user.username != before.username {
                try Self.checkAvailable(db, username: user.username, email: nil, except: id)
            }
            user.updatedAt = now
            try user.update(db)
            return user
        }
    }

    /// Users whose username or display name starts with `prefix`, by username, after `cursor`.
    func searchUsers(prefix: String, after cursor: String?, limit: Int) async throws -> [UserRecord] {
        let pattern = Self.escapeLike(prefix) + "%"
        return try await writer.read { db in
            try UserRecord.fetchAll(
                db,
                sql: """
                    SELECT * FROM users
                    WHERE username IS NOT NULL
                      AND (username LIKE ? ESCAPE '\\' OR display_name LIKE ? ESCAPE '\\')
                      AND username > ?
                    ORDER BY username LIMIT ?
                    """,
                arguments: [pattern, pattern, cursor ?? "", limit])
        }
    }

    private static func checkAvailable(_ db: Database, username: String?, email: String?, except id: String?) throws {
        if let username,
            let owner = try String.fetchOne(db, sql: "SELECT id FROM users WHERE username = ?", arguments: [username]),
            owner != id
        {
            throw Problem.conflict("username_taken", "The username '\(username)' is taken.")
        }
        if let email,
            let owner = try String.fetchOne(db, sql: "SELECT id FROM users WHERE email = ?", arguments: [email]),
            owner != id
        {
            throw Problem.conflict("email_taken", "An account with this e-mail address exists.")
        }
    }

    private static func escapeLike(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
    }

    // MARK: Avatars

    func setAvatar(_ avatar: AvatarRecord, now: Date) async throws {
        try await writer.write { db in
            try avatar.save(db)
            try db.execute(
                sql: "UPDATE users SET avatar_etag = ?, updated_at = ? WHERE id = ?",
                arguments: [avatar.etag, now, avatar.userId])
        }
    }

    /// Removes the picture; `false` when there was none.
    func deleteAvatar(userID: String, now: Date) async throws -> Bool {
        try await writer.write { db in
            let deleted = try AvatarRecord.deleteOne(db, key: userID)
            try db.execute(
                sql: "UPDATE users SET avatar_etag = NULL, updated_at = ? WHERE id = ?", arguments: [now, userID])
            return deleted
        }
    }

    func avatar(userID: String) async throws -> AvatarRecord? {
        try await writer.read { db in try AvatarRecord.fetchOne(db, key: userID) }
    }

    // MARK: External identities

    func user(issuer: String, subject: String) async throws -> UserRecord? {
        try await writer.read { db in
            try UserRecord.fetchOne(
                db,
                sql: """
                    SELECT users.* FROM users JOIN external_identities ON external_identities.user_id = users.id
                    WHERE issuer = ? AND subject = ?
                    """,
                arguments: [issuer, subject])
        }
    }

    /// Links an issuer's account to `existing` (found by verified e-mail) or to a new user.
    func link(_ identity: ExternalIdentityRecord, creating newUser: UserRecord?) async throws {
        try await writer.write { db in
            if let newUser { try newUser.insert(db) }
            try identity.insert(db, onConflict: .ignore)
        }
    }

    /// Every external identity linked to the user.
    func externalIdentities(userID: String) async throws -> [ExternalIdentityRecord] {
        try await writer.read { db in
            try ExternalIdentityRecord.fetchAll(
                db, sql: "SELECT * FROM external_identities WHERE user_id = ? ORDER BY created_at", arguments: [userID])
        }
    }

    /// What linking an identity from settings led to.
    enum LinkOutcome: Sendable, Equatable {
        case linked
        case alreadyLinked
        case linkedToAnotherAccount
    }

    /// Links an issuer's account to a signed-in user, unless another account holds it.
    func linkIdentity(_ identity: ExternalIdentityRecord) async throws -> LinkOutcome {
        try await writer.write { db in
            if let owner = try String.fetchOne(
                db, sql: "SELECT user_id FROM external_identities WHERE issuer = ? AND subject = ?",
                arguments: [identity.issuer, identity.subject])
            {
                return owner == identity.userId ? .alreadyLinked : .linkedToAnotherAccount
            }
            try identity.insert(db)
            return .linked
        }
    }

    /// What unlinking a provider led to.
    enum UnlinkOutcome: Sendable, Equatable {
        case unlinked
        case notLinked
        /// It is the only way left to sign in (no password, no other provider).
        case lastSignInMethod
    }

    /// Removes the user's identities at `issuers`, unless that would leave no way to sign in.
    func unlinkIdentities(userID: String, issuers: [String]) async throws -> UnlinkOutcome {
        try await writer.write { db in
            let linked = try ExternalIdentityRecord.fetchAll(
                db, sql: "SELECT * FROM external_identities WHERE user_id = ?", arguments: [userID])
            let removed = linked.filter { issuers.contains($0.issuer) }
            guard !removed.isEmpty else { return .notLinked }
            let hasPassword =
                try Bool.fetchOne(
                    db, sql: "SELECT password_hash IS NOT NULL FROM users WHERE id = ?", arguments: [userID]) ?? false
            guard hasPassword || linked.count > removed.count else { return .lastSignInMethod }
            for identity in removed { try identity.delete(db) }
            return .unlinked
        }
    }

    // MARK: E-mail verification

    /// Stores a verification token's hash and queues the mail that carries the token.
    func createVerificationToken(_ token: EmailVerificationTokenRecord, mail: MailMessage) async throws {
        try await writer.write { db in
            try token.insert(db)
            try Self.enqueue(db, mail, now: token.createdAt)
        }
    }

    /// Uses a verification token: if it is unused, unexpired and was sent to the user's current address, marks
    /// that address verified and every verification token of the user used. `nil` if the token is not valid.
    func verifyEmail(tokenHash: String, now: Date) async throws -> UserRecord? {
        try await writer.write { db in
            guard let token = try EmailVerificationTokenRecord.fetchOne(db, key: tokenHash), token.usedAt == nil,
                token.expiresAt > now, var user = try UserRecord.fetchOne(db, key: token.userId),
                user.email?.lowercased() == token.email.lowercased()
            else { return nil }
            try db.execute(
                sql: "UPDATE email_verification_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
                arguments: [now, user.id])
            user.emailVerified = true
            user.updatedAt = now
            try user.update(db)
            return user
        }
    }

    // MARK: Sessions and refresh tokens

    func createSession(_ session: SessionRecord, refreshTokenHash: String) async throws {
        try await writer.write { db in
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
        try await writer.write { db in
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
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT token_hash FROM refresh_tokens WHERE session_id = ? AND rotated_at IS NULL",
                arguments: [sessionID])
        }
    }

    /// Revokes one of the user's sessions; `false` if the user has no such active session.
    func revokeSession(id: String, userID: String, reason: String, now: Date) async throws -> Bool {
        try await writer.write { db in
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
        try await writer.write { db in
            try Self.revokeSessions(db, userID: userID, keeping: keeping, reason: reason, now: now)
        }
    }

    private static func revokeSessions(_ db: Database, userID: String, keeping: String?, reason: String, now: Date)
        throws -> [String]
    {
        let revoked = try String.fetchAll(
            db,
            sql: """
                UPDATE sessions SET revoked_at = ?, revoke_reason = ?
                WHERE user_id = ? AND revoked_at IS NULL AND id IS NOT ?
                RETURNING id
                """,
            arguments: [now, reason, userID, keeping])
        try recordRevocations(db, revoked, now: now)
        return revoked
    }

    // MARK: Ended sessions (the revocation feed)

    /// Publishes ended sessions in the transaction that ends them, so no reader of the feed can miss one;
    /// an access token issued up to `now` lives at most one token lifetime longer. Entries an hour past that
    /// are pruned here (the sequence is AUTOINCREMENT, so pruning never lets a number come back).
    private static func recordRevocations(_ db: Database, _ sessionIDs: [String], now: Date) throws {
        guard !sessionIDs.isEmpty else { return }
        let until = now.addingTimeInterval(TokenSigner.accessTokenLifetime)
        for id in sessionIDs {
            try db.execute(
                sql: "INSERT INTO session_revocations (session_id, expires_at) VALUES (?, ?)", arguments: [id, until])
        }
        try db.execute(
            sql: "DELETE FROM session_revocations WHERE expires_at < ?", arguments: [now.addingTimeInterval(-3600)])
    }

    /// Revocations after `sequence` in order (at most `limit`), or with `sequence` nil every one still in force.
    func revocations(after sequence: Int64?, now: Date, limit: Int) async throws -> SessionRevocationPage {
        try await writer.read { db in
            let records: [SessionRevocationRecord]
            if let sequence {
                records = try SessionRevocationRecord.fetchAll(
                    db, sql: "SELECT * FROM session_revocations WHERE sequence > ? ORDER BY sequence LIMIT ?",
                    arguments: [sequence, limit])
            } else {
                records = try SessionRevocationRecord.fetchAll(
                    db, sql: "SELECT * FROM session_revocations WHERE expires_at > ? ORDER BY sequence",
                    arguments: [now])
            }
            let highest =
                try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'session_revocations'") ?? 0
            // A limited page ends at its last entry, so the next poll continues from there.
            let last = sequence != nil && records.count == limit ? records.last?.sequence ?? highest : highest
            let items = records.map {
                SessionRevocation(sequence: $0.sequence, sessionId: $0.sessionId, until: $0.expiresAt)
            }
            return SessionRevocationPage(items: items, last: last)
        }
    }

    func activeSessions(userID: String) async throws -> [SessionRecord] {
        try await writer.read { db in
            try SessionRecord.fetchAll(
                db, sql: "SELECT * FROM sessions WHERE user_id = ? AND revoked_at IS NULL ORDER BY last_used_at DESC",
                arguments: [userID])
        }
    }

    // MARK: Passwords

    /// Sets a new password hash, revokes the user's other sessions and queues the "password changed" mail;
    /// returns the revoked sessions' ids.
    func changePassword(userID: String, hash: String, keepingSession: String?, notice: MailMessage?, now: Date)
        async throws -> [String]
    {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?", arguments: [hash, now, userID])
            let revoked = try Self.revokeSessions(
                db, userID: userID, keeping: keepingSession, reason: "password_changed", now: now)
            if let notice { try Self.enqueue(db, notice, now: now) }
            return revoked
        }
    }

    /// Stores a reset token's hash and queues the mail that carries the token.
    func createResetToken(_ token: PasswordResetTokenRecord, mail: MailMessage) async throws {
        try await writer.write { db in
            try token.insert(db)
            try Self.enqueue(db, mail, now: token.createdAt)
        }
    }

    /// Uses a reset token: if it is still unused and unexpired, sets the password, marks every reset token
    /// of the user used, revokes all sessions and queues the notice; returns the revoked sessions' ids. `nil` if
    /// the token is not valid (unknown, used and expired look the same to the caller).
    func resetPassword(tokenHash: String, userID: String, passwordHash: String, notice: MailMessage?, now: Date)
        async throws -> [String]?
    {
        try await writer.write { db in
            guard let token = try PasswordResetTokenRecord.fetchOne(db, key: tokenHash), token.usedAt == nil,
                token.expiresAt > now, token.userId == userID
            else { return nil }
            try db.execute(
                sql: "UPDATE password_reset_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
                arguments: [now, userID])
            try db.execute(
                sql: "UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?",
                arguments: [passwordHash, now, userID])
            let revoked = try Self.revokeSessions(
                db, userID: userID, keeping: nil, reason: "password_reset", now: now)
            if let notice { try Self.enqueue(db, notice, now: now) }
            return revoked
        }
    }

    /// The user a reset token belongs to, if the token is still usable.
    func userForResetToken(tokenHash: String, now: Date) async throws -> UserRecord? {
        try await writer.read { db in
            guard let token = try PasswordResetTokenRecord.fetchOne(db, key: tokenHash), token.usedAt == nil,
                token.expiresAt > now
            else { return nil }
            return try UserRecord.fetchOne(db, key: token.userId)
        }
    }

    // MARK: Outbox

    func enqueue(_ mail: MailMessage, now: Date) async throws {
        try await writer.write { db in try Self.enqueue(db, mail, now: now) }
    }

    private static func enqueue(_ db: Database, _ mail: MailMessage, now: Date) throws {
        var record = OutboxEmailRecord(
            id: nil, recipient: mail.recipient, subject: mail.subject, body: mail.body, createdAt: now,
            nextAttemptAt: now, attempts: 0)
        try record.insert(db)
    }

    func dueEmails(now: Date, limit: Int) async throws -> [OutboxEmailRecord] {
        try await writer.read { db in
            try OutboxEmailRecord.fetchAll(
                db,
                sql: "SELECT * FROM outbox_emails WHERE sent_at IS NULL AND next_attempt_at <= ? ORDER BY id LIMIT ?",
                arguments: [now, limit])
        }
    }

    func markSent(emailID: Int64, now: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "UPDATE outbox_emails SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?",
                arguments: [now, emailID])
        }
    }

    func markFailed(emailID: Int64, error: String, retryAt: Date) async throws {
        try await writer.write { db in
            try db.execute(
                sql:
                    "UPDATE outbox_emails SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
                arguments: [error, retryAt, emailID])
        }
    }
}
