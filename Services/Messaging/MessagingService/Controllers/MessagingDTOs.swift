import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

struct UserView: Codable, Sendable {
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?

    init(id: String, profiles: [String: DirectoryUser]) {
        userId = id
        username = profiles[id]?.username
        displayName = profiles[id]?.displayName ?? ""
        avatarUrl = profiles[id]?.avatarUrl
    }
}

struct MemberView: Codable, Sendable {
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?
    var role: String
    var joinedAt: Date
}

struct MessageView: ResponseEncodable, Codable, Sendable {
    var id: Int64
    var conversationId: String
    var topicId: Int64?
    var topic: String?
    var senderId: String
    var text: String
    /// Ids of the members the text mentions.
    var mentions: [String]
    var createdAt: Date
    var editedAt: Date?
    /// `true` on my own message while reports hide it from everyone else (until an admin decides); absent otherwise.
    var hidden: Bool?
    /// Each emoji's reactions, in the order they were first given; absent when there are none.
    var reactions: [ReactionView]?
    /// Its images in the order sent; absent when there are none.
    var images: [ImageView]?

    init(_ message: MessageRecord) {
        id = message.id
        conversationId = message.conversationId
        topicId = message.topicId
        topic = message.topicName
        senderId = message.senderId
        text = message.text
        mentions = message.mentions
        createdAt = message.createdAt
        editedAt = message.editedAt
        hidden = message.hidden ? true : nil
        reactions = message.reactions.isEmpty ? nil : message.reactions.map(ReactionView.init)
        images = message.images.isEmpty ? nil : message.images.map { ImageView($0, in: message.conversationId) }
    }
}

struct ConversationView: ResponseEncodable, Sendable {
    var id: String
    var kind: String
    /// The app it was started in: `wegroup` or `getaway`.
    var product: String
    /// The group's name; `nil` for a direct conversation (show `otherUser`).
    var name: String?
    var createdBy: String
    var createdAt: Date
    /// For a direct conversation, the other person.
    var otherUser: UserView?
    var memberCount: Int
    /// Every member, on single-conversation answers.
    var members: [MemberView]?
    var muted: Bool
    var unreadCount: Int
    var lastMessage: MessageView?
    /// In a direct conversation, the last message the other person has read, when both of us share read receipts
    /// (``MessagingSettingsController``); on single-conversation answers only.
    var otherLastReadId: Int64? = nil
    /// On the add-members answer only: those named who were in the group already (the others were added).
    var alreadyMembers: [String]? = nil
}

extension ConversationView {
    /// A line of the caller's list (no member list), with the other person's profile for a direct conversation.
    init(_ summary: ConversationSummary, profiles: [String: DirectoryUser]) {
        self.init(
            id: summary.conversation.id, kind: summary.conversation.kind, product: summary.conversation.product,
            name: summary.conversation.name,
            createdBy: summary.conversation.createdBy, createdAt: summary.conversation.createdAt,
            otherUser: summary.otherUserID.map { UserView(id: $0, profiles: profiles) },
            memberCount: summary.memberCount, members: nil, muted: summary.muted, unreadCount: summary.unread,
            lastMessage: summary.lastMessage.map(MessageView.init))
    }
}

/// A line of "the groups a friend is in": what a list shows, and no message text (the caller may not have read it).
struct FriendGroupView: ResponseEncodable, Sendable {
    var id: String
    var name: String?
    var memberCount: Int
    var lastActivityAt: Date
}

extension FriendGroupView {
    init(_ group: FriendGroup) {
        self.init(id: group.id, name: group.name, memberCount: group.memberCount, lastActivityAt: group.lastActivityAt)
    }
}

struct TopicView: ResponseEncodable, Sendable {
    var id: Int64
    var conversationId: String
    var name: String
    var resolved: Bool
    var createdBy: String
    var createdAt: Date
    var lastActivityAt: Date
    var lastMessageId: Int64?
    /// The caller's policy: `inherit`, `followed` or `muted`.
    var policy: String
    var unreadCount: Int
    /// Pinned to the top of my list.
    var pinned: Bool

    init(_ summary: TopicSummary) {
        id = summary.topic.id ?? 0
        conversationId = summary.topic.conversationId
        name = summary.topic.name
        resolved = summary.topic.resolved
        createdBy = summary.topic.createdBy
        createdAt = summary.topic.createdAt
        lastActivityAt = summary.topic.lastActivityAt
        lastMessageId = summary.topic.lastMessageId
        policy = summary.policy.rawValue
        unreadCount = summary.unread
        pinned = summary.pinned
    }
}

/// A page of messages around an anchor, oldest first; a cursor is `nil` where that end of the history is reached.
struct MessagePage: Encodable, Sendable {
    var items: [MessageView]
    var olderCursor: String?
    var newerCursor: String?
    var foundOldest: Bool
    var foundNewest: Bool
    var anchor: Int64?
}

/// Where a message page's cursor continues: strictly before or after a message id.
struct MessageCursor: Codable, Sendable {
    var before: Int64?
    var after: Int64?
}

struct ReadView: ResponseEncodable, Sendable {
    var conversationId: String
    var topicId: Int64?
    var lastReadId: Int64
    var unreadCount: Int
    var topicUnreadCount: Int?
}

struct UnreadView: ResponseEncodable, Sendable {
    struct Topic: Encodable, Sendable {
        var topicId: Int64
        var unreadCount: Int
    }
    struct Conversation: Encodable, Sendable {
        var conversationId: String
        var unreadCount: Int
        var topics: [Topic]
    }
    var total: Int
    var conversations: [Conversation]
}

struct SearchResultView: Encodable, Sendable {
    var message: MessageView
    /// HTML-escaped text around the matches, each in `<mark>`.
    var snippet: String
}

struct SettingsView: ResponseEncodable, Codable, Sendable {
    /// Whether the other person of a direct conversation sees how far I read; off, I do not see theirs either.
    var shareReadReceipts: Bool
}

struct MuteView: ResponseEncodable, Sendable {
    var conversationId: String
    var muted: Bool
}
