import Foundation
import GRDB
import ServiceKit

/// A row of `email_verification_tokens`: hashed, single use, expiring, for the address it was sent to.
struct EmailVerificationTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "email_verification_tokens"

    var tokenHash: String
    var userId: String
    var email: String
    var createdAt: Date
    var expiresAt: Date
    var usedAt: Date?

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let userId = Column("user_id")
        static let usedAt = Column("used_at")
    }
}
