import Foundation
import GRDB
import PlatformKit

// E-mail verification tokens.
extension SQLiteIdentityStore {
    /// Stores a verification token's hash and queues the mail that carries the token.
    func createVerificationToken(_ token: EmailVerificationTokenRecord, mail: MailMessage) async throws {
        try await write { db in
            try token.insert(db)
            try Self.enqueue(db, mail, now: token.createdAt)
        }
    }

    /// Uses a verification token: if it is unused, unexpired and was sent to the user's current address (or is an
    /// e-mail change, see `changesEmail`), marks that address the user's and verified, and every verification token
    /// of the user used. A change also tells the old address (`notice`). `nil` if the token is not valid, or the
    /// new address was taken by another account meanwhile.
    func verifyEmail(tokenHash: String, now: Date) async throws -> UserRecord? {
        try await write { db in
            guard let token = try EmailVerificationTokenRecord.fetchOne(db, key: tokenHash), token.usedAt == nil,
                token.expiresAt > now, var user = try UserRecord.fetchOne(db, key: token.userId)
            else { return nil }
            if token.changesEmail, user.email?.lowercased() != token.email.lowercased() {
                guard try Self.emailOwner(db, token.email) == nil else { return nil }
                if let old = user.email {
                    try Self.enqueue(db, IdentityMail.emailChanged(to: old, newAddress: token.email), now: now)
                }
                user.email = token.email
            }
            guard user.email?.lowercased() == token.email.lowercased() else { return nil }
            try db.execute(
                sql: "UPDATE email_verification_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL",
                arguments: [now, user.id])
            user.emailVerified = true
            user.updatedAt = now
            try user.update(db)
            return user
        }
    }

    /// Whether a verification token could still be used (unused, unexpired, for the user's current address).
    func verificationTokenIsUsable(tokenHash: String, now: Date) async throws -> Bool {
        try await read { db in
            guard let token = try EmailVerificationTokenRecord.fetchOne(db, key: tokenHash), token.usedAt == nil,
                token.expiresAt > now, let user = try UserRecord.fetchOne(db, key: token.userId)
            else { return false }
            return token.changesEmail || user.email?.lowercased() == token.email.lowercased()
        }
    }

    /// Whether `email` belongs to an account other than `userID` (the change is then refused without saying so).
    func emailBelongsToAnotherAccount(_ email: String, userID: String) async throws -> Bool {
        try await read { db in
            guard let owner = try Self.emailOwner(db, email) else { return false }
            return owner != userID
        }
    }

    private static func emailOwner(_ db: Database, _ email: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT id FROM users WHERE email = ?"), arguments: [email])
    }
}
