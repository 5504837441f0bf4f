import Foundation

/// A message about to be stored, already validated.
struct NewMessage: Sendable {
    var conversationID: String
    var senderID: String
    var text: String
    /// The topic chosen by id, or
    var topicID: Int64?
    /// by name (a leading `#tag`), created on first use.
    var topicName: String?
    /// Ids of the members the text mentions.
    var mentions: [String]
    var idempotencyKey: String?
    var now: Date
    /// Uploads of the sender's to this conversation, not in a message yet, that the message carries (in order).
    var imageIDs: [String] = []
}

/// The outcome of an edit: the message as it is now, and who it mentioned before.
struct EditedMessage: Sendable {
    var message: MessageRecord
    var previousMentions: [String]
    var conversation: ConversationRecord
    /// Every member, for notices and live events.
    var members: [MemberState]
}

/// The outcome of a delete: the message gone, and the members to tell.
struct DeletedMessage: Sendable {
    var conversationID: String
    var messageID: Int64
    var senderID: String
    var members: [String]
}

extension DeletedMessage {
    /// `message` gone, told to `members`.
    init(_ message: MessageRecord, members: [String]) {
        self.init(
            conversationID: message.conversationId, messageID: message.id, senderID: message.senderId,
            members: members)
    }
}

/// The outcome of a send.
struct SentMessage: Sendable {
    var message: MessageRecord
    /// `false` when the idempotency key named a message sent before: nothing new was stored.
    var created: Bool
    var conversation: ConversationRecord
    /// Every member, for notices and live events (empty for a repeated send).
    var members: [MemberState]
}

/// Where a page of messages is taken from.
enum MessageAnchor: Sendable, Equatable {
    case newest, oldest, firstUnread
    /// Around a message id: half before it, it and half after.
    case around(Int64)
    /// Strictly older than an id (a cursor going back).
    case before(Int64)
    /// Strictly newer than an id (a cursor going forward).
    case after(Int64)
}

/// A page of messages, oldest first, and whether either end of the history is in it.
struct MessageWindow: Sendable {
    var messages: [MessageRecord]
    var foundOldest: Bool
    var foundNewest: Bool
    /// The message the page was anchored on (`around`, `firstUnread`), if any.
    var anchor: Int64?
    /// The conversation's revision the page was read at (``MessagingDatabase/revision(_:_:)``).
    var revision: Int64 = 0
    /// Whether the conversation holds hidden messages: then pages differ by reader and are not kept.
    var holdsHidden = false
    /// Whether a message of the page has reactions: then the page differs by reader (whose are "mine").
    var holdsReactions = false
}

/// One search result.
struct SearchHit: Sendable {
    var message: MessageRecord
    /// The text around the matches, each match between U+E000 and U+E001 (``SearchQuery/highlight(_:)`` makes it
    /// HTML).
    var snippet: String
}
