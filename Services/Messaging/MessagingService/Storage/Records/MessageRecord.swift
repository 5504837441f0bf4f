import Foundation

/// A message as read back, with its topic's name.
struct MessageRecord: Sendable, Equatable {
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
    /// Reported by enough members: left out for everyone but its sender until an admin decides.
    var hidden: Bool
    /// Its reactions as the reader sees them, on pages of messages (empty elsewhere).
    var reactions: [ReactionSummary] = []
    /// Its images in the order sent (``ChatImages``).
    var images: [MessageImage] = []

    init(
        id: Int64, conversationId: String, topicId: Int64?, topicName: String?, senderId: String, text: String,
        mentions: [String], createdAt: Date, editedAt: Date? = nil, hidden: Bool = false
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
        self.hidden = hidden
    }
}

/// An image of a message, or an upload waiting for its message: what a client lays out before fetching the bytes.
struct MessageImage: Sendable, Equatable {
    /// The upload's id (a lower-case UUID).
    var id: String
    var mediaType: String
    /// Pixels as shown (``ImageSize``).
    var width: Int
    var height: Int
    var byteCount: Int
}
