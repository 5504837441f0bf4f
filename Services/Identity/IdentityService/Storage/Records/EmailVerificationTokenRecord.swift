import Foundation

/// A row of `email_verification_tokens`: hashed, single use, expiring, for the address it was sent to.
struct EmailVerificationTokenRecord: Codable, Sendable {
    var tokenHash: String
    var userId: String
    var email: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
    /// The hash of the six-digit code mailed with the link (`MailCode`); `nil` for tokens made before codes.
    var codeHash: String?
    /// Wrong codes tried against this token.
    var codeAttempts: Int = 0
    /// Using the token makes `email` the account's address (a change asked for by the signed-in user).
    var changesEmail: Bool = false
}
