import Foundation
import GRDB
import ServiceKit

/// A row of `refresh_tokens`: only the SHA-256 of the token is stored.
struct RefreshTokenRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "refresh_tokens"

    var tokenHash: String
    var sessionId: String
    var createdAt: Date
    var rotatedAt: Date?

    enum Columns {
        static let tokenHash = Column("token_hash")
        static let sessionId = Column("session_id")
        static let rotatedAt = Column("rotated_at")
    }
}
