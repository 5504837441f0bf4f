import Foundation
import GRDB
import ServiceKit

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

    init(row: Row) throws {
        id = try row.decode(atIndex: 0)
        conversationId = try row.decode(atIndex: 1)
        topicId = try row.decode(atIndex: 2)
        topicName = try row.decode(atIndex: 3)
        senderId = try row.decode(atIndex: 4)
        text = try row.decode(atIndex: 5)
        mentions = (try row.decode(String?.self, atIndex: 6) ?? "").split(separator: " ").map(String.init)
        createdAt = try row.decodeDate(atIndex: 7)
        editedAt = try row.decodeDateIfPresent(atIndex: 8)
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
