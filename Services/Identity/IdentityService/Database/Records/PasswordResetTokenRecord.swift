import Foundation
import GRDB
import ServiceKit

/// A row of `password_reset_tokens`: hashed, single use, expiring.
struct PasswordResetTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "password_reset_tokens"

    var tokenHash: String
    var userId: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let userId = Column("user_id")
        static let usedAt = Column("used_at")
    }
}
