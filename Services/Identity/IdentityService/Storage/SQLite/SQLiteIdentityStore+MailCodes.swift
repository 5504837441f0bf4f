import Foundation
import GRDB
import PlatformKit

/// A mailed single-use token (reset, verification) that also carries a six-digit code.
protocol MailedTokenRecord: FetchableRecord, PersistableRecord {
    var tokenHash: String { get }
    var codeHash: String? { get }
    var codeAttempts: Int { get set }
    var usedAt: Date? { get set }
}

// Exchanging a mailed code, with the address it was sent to, for its link's token.
extension SQLiteIdentityStore {
    /// The hash of the reset token whose code was mailed to `email`, if `code` is it (see `spendCode`).
    func resetTokenHash(email: String, code: String, now: Date) async throws -> String? {
        try await write { db in
            let newest =
                try PasswordResetTokenRecord
                .filter(literal: "user_id IN (SELECT id FROM users WHERE email = \(email))")
                .filter(PasswordResetTokenRecord.Columns.usedAt == nil)
                .filter(PasswordResetTokenRecord.Columns.expiresAt > now)
                .filter(PasswordResetTokenRecord.Columns.codeHash != nil)
                .order(PasswordResetTokenRecord.Columns.createdAt.desc)
                .fetchOne(db)
            return try Self.spendCode(db, code: code, on: newest, now: now)
        }
    }

    /// The hash of the verification token whose code was mailed to `email`, if `code` is it (see `spendCode`).
    func verificationTokenHash(email: String, code: String, now: Date) async throws -> String? {
        try await write { db in
            let newest =
                try EmailVerificationTokenRecord
                .filter(EmailVerificationTokenRecord.Columns.email == email)
                .filter(EmailVerificationTokenRecord.Columns.usedAt == nil)
                .filter(EmailVerificationTokenRecord.Columns.expiresAt > now)
                .filter(EmailVerificationTokenRecord.Columns.codeHash != nil)
                .order(EmailVerificationTokenRecord.Columns.createdAt.desc)
                .fetchOne(db)
            return try Self.spendCode(db, code: code, on: newest, now: now)
        }
    }

    /// Only the newest token's code counts. A right code answers the token's hash (the caller then uses the token as
    /// if its link was opened); a wrong one is counted, and at `MailCode.maximumTries` the token is spent.
    private static func spendCode<Token: MailedTokenRecord>(
        _ db: Database, code: String, on token: Token?, now: Date
    ) throws -> String? {
        guard var token else { return nil }
        if MailCode.matches(code, storedHash: token.codeHash, tokenHash: token.tokenHash) { return token.tokenHash }
        token.codeAttempts += 1
        if token.codeAttempts >= MailCode.maximumTries { token.usedAt = now }
        try token.update(db)
        return nil
    }
}
