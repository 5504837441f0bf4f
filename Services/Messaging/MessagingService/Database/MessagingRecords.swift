import Foundation
import GRDB
import ServiceKit

/// What the Codable records of this service are.
protocol MessagingRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {}

/// A row of `conversations`.
struct ConversationRow: MessagingRecord {
    static let databaseTableName = "conversations"
    var id: String
    var kind: String
    var name: String?
    var directKey: String?
    var createdBy: String
    var createdAt: Date
    var lastMessageId: Int64?
    var activity: Int64

    var conversationKind: ConversationKind { ConversationKind(rawValue: kind) ?? .group }

    /// The key that makes a direct conversation unique per pair, whoever opens it.
    static func directKey(_ a: String, _ b: String) -> String { a < b ? "\(a) \(b)" : "\(b) \(a)" }
}

/// A row of `members`.
struct MemberRow: MessagingRecord {
    static let databaseTableName = "members"
    var conversationId: String
    var userId: String
    var role: String
    var muted: Bool
    var lastReadId: Int64
    var joinedAt: Date

    var isAdmin: Bool { role == "admin" }
}

/// A row of `topics`.
struct TopicRow: MessagingRecord {
    static let databaseTableName = "topics"
    var id: Int64?
    var conversationId: String
    var name: String
    var resolved: Bool
    var createdBy: String
    var createdAt: Date
    var lastMessageId: Int64?
    var lastActivityAt: Date
}

/// A message as read back, with its topic's name; decoded by column on the hot paths.
struct MessageRecord: FetchableRecord, Sendable, Equatable {
    var id: Int64
    var conversationId: String
    var topicId: Int64?
    var topicName: String?
    var senderId: String
    var text: String
    /// Ids of the members the text mentions.
    var mentions: [String]
    var createdAt: Date
    var editedAt: Date?

    /// The select list `init(row:)` decodes, `m` being `messages` and `t` its topic.
    static let columns =
        "m.id, m.conversation_id, m.topic_id, t.name, m.sender_id, m.text, m.mentions, m.created_at, m.edited_at"

    init(row: Row) {
        id = row[0]
        conversationId = row[1]
        topicId = row[2]
        topicName = row[3]
        senderId = row[4]
        text = row[5]
        mentions = (row[6] as String? ?? "").split(separator: " ").map(String.init)
        createdAt = row[7]
        editedAt = row[8]
    }

    init(
        id: Int64, conversationId: String, topicId: Int64?, topicName: String?, senderId: String, text: String,
        mentions: [String], createdAt: Date, editedAt: Date? = nil
    ) {
        self.id = id
        self.conversationId = conversationId
        self.topicId = topicId
        self.topicName = topicName
        self.senderId = senderId
        self.text = text
        self.mentions = mentions
        self.createdAt = createdAt
        self.editedAt = editedAt
    }
}
