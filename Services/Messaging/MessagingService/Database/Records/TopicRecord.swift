import Foundation
import GRDB
import ServiceKit

/// A row of `topics`.
struct TopicRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "topics"

    enum Columns {
        static let conversationID = Column("conversation_id")
        static let name = Column("name")
    }

    var id: Int64?
    var conversationId: String
    var name: String
    var resolved: Bool
    var createdBy: String
    var createdAt: Date
    var lastMessageId: Int64?
    var lastActivityAt: Date
}
