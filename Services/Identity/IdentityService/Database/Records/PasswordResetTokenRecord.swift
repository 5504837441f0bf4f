import Foundation
import GRDB
import ServiceKit

/// A row of `password_reset_tokens`: hashed, single use, expiring.
struct PasswordResetTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, MailedTokenRecord,
    Sendable
{
    static let databaseTableName = "password_reset_tokens"

    var tokenHash: String
    var userId: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?
    /// The hash of the six-digit code mailed with the link (`MailCode`); `nil` for tokens made before codes.
    var codeHash: String?
    /// Wrong codes tried against this token.
    var codeAttempts: Int = 0

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let userId = Column("user_id")
        static let usedAt = Column("used_at")
        static let expiresAt = Column("expires_at")
        static let createdAt = Column("created_at")
        static let codeHash = Column("code_hash")
    }
}
