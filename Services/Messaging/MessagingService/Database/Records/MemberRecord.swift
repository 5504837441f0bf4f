import Foundation
import GRDB
import ServiceKit

/// A row of `members`.
struct MemberRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "members"

    enum Columns {
        static let conversationID = Column("conversation_id")
        static let userID = Column("user_id")
    }

    var conversationId: String
    var userId: String
    var role: String
    var muted: Bool
    var lastReadId: Int64
    var joinedAt: Date

    var isAdmin: Bool { role == "admin" }
}
