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

    enum Columns {
        static let id = Column("id")
        static let userId = Column("user_id")
        static let revokedAt = Column("revoked_at")
        static let lastUsedAt = Column("last_used_at")
    }
}
