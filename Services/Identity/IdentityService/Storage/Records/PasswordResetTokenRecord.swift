import Foundation

/// A row of `password_reset_tokens`: hashed, single use, expiring.
struct PasswordResetTokenRecord: Codable, Sendable {
    var tokenHash: String
    var userId: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
    /// The hash of the six-digit code mailed with the link (`MailCode`); `nil` for tokens made before codes.
    var codeHash: String?
    /// Wrong codes tried against this token.
    var codeAttempts: Int = 0
}
