import Foundation
import GRDB
import ServiceKit

/// A row of `sessions`: one signed-in device, the family of its refresh tokens.
struct SessionRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "sessions"

    var id: String
    var userId: String
    var userAgent: String?
    var createdAt: Date
    var lastUsedAt: Date
    var revokedAt: Date?
    var revokeReason: String?
}

/// A row of `refresh_tokens`: only the SHA-256 of the token is stored.
struct RefreshTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "refresh_tokens"

    var tokenHash: String
    var sessionId: String
    var createdAt: Date
    var rotatedAt: Date?
}

/// A row of `password_reset_tokens`: hashed, single use, expiring.
struct PasswordResetTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "password_reset_tokens"

    var tokenHash: String
    var userId: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
}

/// A row of `outbox_emails`: mail waiting for (or done with) delivery.
struct OutboxEmailRecord: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "outbox_emails"

    var id: Int64?
    var recipient: String
    var subject: String
    var body: String
    var createdAt: Date
    var nextAttemptAt: Date
    var attempts: Int
    var sentAt: Date?
    var lastError: String?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A row of `session_revocations`: a session that ended while its access tokens were still valid.
struct SessionRevocationRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "session_revocations"

    var sequence: Int64
    var sessionId: String
    var expiresAt: Date
}

/// A row of `email_verification_tokens`: hashed, single use, expiring, for the address it was sent to.
struct EmailVerificationTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "email_verification_tokens"

    var tokenHash: String
    var userId: String
    var email: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
}
