import Foundation
import GRDB
import PlatformKit

// Password changes and resets by mailed token.
extension SQLiteIdentityStore {
    /// Sets a new password hash, revokes the user's other sessions and queues the "password changed" mail;
    /// returns the revoked sessions' ids.
    func changePassword(userID: String, hash: String, keepingSession: String?, notice: MailMessage?, now: Date)
        async throws -> [String]
    {
        try await write { db in
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
        try await write { db in
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
        try await write { db in
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
        try await read { db in
            guard let token = try PasswordResetTokenRecord.fetchOne(db, key: tokenHash), token.usedAt == nil,
                token.expiresAt > now
            else { return nil }
            return try UserRecord.fetchOne(db, key: token.userId)
        }
    }
}
