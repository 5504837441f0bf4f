import Foundation

// Typed answers of the messaging service (Services/Messaging/MessagingService/Controllers/MessagingDTOs.swift and
// the live events of MessageEvents.swift), as the stack tests read them. The service's `Int64` ids are `Int` here
// (64 bits on every platform the tests run on), as the tests' request bodies send them.

/// A user as a conversation shows them (`UserView`).
public struct WireConversationUser: Decodable, Sendable {
    public var userId: String
    public var username: String?
    public var displayName: String
    public var avatarUrl: String?
}

/// A member of a conversation (`MemberView`); `role` is `admin` or `member`.
public struct WireConversationMember: Decodable, Sendable {
    public var userId: String
    public var username: String?
    public var displayName: String
    public var avatarUrl: String?
    public var role: String
    public var joinedAt: Date
}

/// A message (`MessageView`).
public struct WireMessage: Decodable, Sendable {
    public var id: Int
    public var conversationId: String
    public var topicId: Int?
    public var topic: String?
    public var senderId: String
    public var text: String
    /// Ids of the members the text mentions.
    public var mentions: [String]
    public var createdAt: Date
    public var editedAt: Date?
}

/// A direct conversation or a group (`ConversationView`); `kind` is `direct` or `group`.
public struct WireConversation: Decodable, Sendable {
    public var id: String
    public var kind: String
    /// `wegroup` or `getaway`: the app it was started in.
    public var product: String
    /// `nil` for a direct conversation.
    public var name: String?
    public var createdBy: String
    public var createdAt: Date
    /// For a direct conversation, the other person.
    public var otherUser: WireConversationUser?
    public var memberCount: Int
    /// Every member, on single-conversation answers only.
    public var members: [WireConversationMember]?
    public var muted: Bool
    public var unreadCount: Int
    public var lastMessage: WireMessage?
    /// On the add-members answer only: those named who were in the group already.
    public var alreadyMembers: [String]?
}

/// A line of "the groups a friend is in" (`FriendGroupView`): no message text.
public struct WireFriendGroup: Decodable, Sendable {
    public var id: String
    public var name: String?
    public var memberCount: Int
    public var lastActivityAt: Date
}

/// A topic of a group (`TopicView`); `policy` is `inherit`, `followed` or `muted`.
public struct WireTopic: Decodable, Sendable {
    public var id: Int
    public var conversationId: String
    public var name: String
    public var resolved: Bool
    public var createdBy: String
    public var createdAt: Date
    public var lastActivityAt: Date
    public var lastMessageId: Int?
    public var policy: String
    public var unreadCount: Int
}

/// A page of messages around an anchor, oldest first (`MessagePage`).
public struct WireMessagePage: Decodable, Sendable {
    public var items: [WireMessage]
    public var olderCursor: String?
    public var newerCursor: String?
    public var foundOldest: Bool
    public var foundNewest: Bool
    public var anchor: Int?
}

/// Where the reader's marker stands after marking read (`ReadView`).
public struct WireReadMarker: Decodable, Sendable {
    public var conversationId: String
    public var topicId: Int?
    public var lastReadId: Int
    public var unreadCount: Int
    public var topicUnreadCount: Int?
}

/// The unread counts of every conversation (`UnreadView`).
public struct WireUnread: Decodable, Sendable {
    /// One topic's unread count.
    public struct Topic: Decodable, Sendable {
        public var topicId: Int
        public var unreadCount: Int
    }
    /// One conversation's unread count.
    public struct Conversation: Decodable, Sendable {
        public var conversationId: String
        public var unreadCount: Int
        public var topics: [Topic]
    }
    public var total: Int
    public var conversations: [Conversation]
}

/// One search hit (`SearchResultView`): the message and HTML-escaped text around the matches.
public struct WireSearchHit: Decodable, Sendable {
    public var message: WireMessage
    public var snippet: String
}

/// Whether a conversation is muted (`MuteView`).
public struct WireMute: Decodable, Sendable {
    public var conversationId: String
    public var muted: Bool
}

/// The payload of the live `message.deleted` event (`MessageEvents.Deleted`).
public struct WireMessageDeleted: Decodable, Sendable {
    public var conversationId: String
    public var messageId: Int
}
