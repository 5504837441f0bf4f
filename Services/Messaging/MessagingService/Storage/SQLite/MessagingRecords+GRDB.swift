import Foundation
import GRDB
import ServiceKit

// The records' rows in SQLite: what GRDB needs to read and write them.

extension ConversationRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "conversations"

    enum Columns {
        static let id = Column("id")
        static let directKey = Column("direct_key")
    }
}

extension MemberRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "members"

    enum Columns {
        static let conversationID = Column("conversation_id")
        static let userID = Column("user_id")
    }
}

extension TopicRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "topics"

    enum Columns {
        static let conversationID = Column("conversation_id")
        static let name = Column("name")
    }
}

/// Decoded by column on the hot paths.
extension MessageRecord: FetchableRecord {
    /// The select list `init(row:)` decodes, `m` being `messages` and `t` its topic.
    static let columns =
        """
        m.id, m.conversation_id, m.topic_id, t.name, m.sender_id, m.text, m.mentions, m.created_at, m.edited_at, \
        m.hidden
        """

    init(row: Row) throws {
        self.init(
            id: try row.decode(atIndex: 0), conversationId: try row.decode(atIndex: 1),
            topicId: try row.decode(atIndex: 2), topicName: try row.decode(atIndex: 3),
            senderId: try row.decode(atIndex: 4), text: try row.decode(atIndex: 5),
            mentions: (try row.decode(String?.self, atIndex: 6) ?? "").split(separator: " ").map(String.init),
            createdAt: try row.decodeDate(atIndex: 7), editedAt: try row.decodeDateIfPresent(atIndex: 8),
            hidden: try row.decode(atIndex: 9))
    }
}
