import Foundation
import GRDB
import ServiceKit

/// A row of `friend_requests`.
struct FriendRequestRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "friend_requests"
    var id: String
    var senderId: String
    var recipientId: String
    var status: String
    var createdAt: Date
    var respondedAt: Date?

    enum Columns {
        static let id = Column("id")
        static let senderId = Column("sender_id")
        static let recipientId = Column("recipient_id")
        static let status = Column("status")
        static let createdAt = Column("created_at")
    }
}
