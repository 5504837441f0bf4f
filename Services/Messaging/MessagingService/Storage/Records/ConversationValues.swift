import Foundation

/// A member's unread messages in one conversation: exact counts, computed from the read markers.
struct UnreadCount: Sendable, Equatable {
    /// Unread messages outside muted topics.
    var total: Int
    /// Unread messages per topic, muted topics included (a topic view shows them).
    var byTopic: [Int64: Int]
}

/// One line of a member's conversation list.
struct ConversationSummary: Sendable {
    var conversation: ConversationRecord
    var muted: Bool
    var lastMessage: MessageRecord?
    /// For a direct conversation, the other person.
    var otherUserID: String?
    var memberCount: Int
    var unread: Int
}

/// A topic as a member sees it: its activity, their policy and their unread count in it.
struct TopicSummary: Sendable {
    var topic: TopicRecord
    var policy: TopicPolicy
    var unread: Int
    /// Pinned to the top of the caller's list.
    var pinned = false
}

/// Where a topic sorts in a member's list (and where a page of it continues): pinned first, then by latest message.
struct TopicOrder: Sendable, Equatable {
    var pinned: Bool
    /// The topic's last message id, 0 when it has none.
    var lastMessageID: Int64
    var id: Int64

    /// Before every topic: where the first page starts.
    static let start = TopicOrder(pinned: true, lastMessageID: .max, id: .max)
}

/// Who a group gained, and the group's name for telling them.
struct AddedMembers: Sendable {
    var userIDs: [String]
    var groupName: String?
}

/// A line of "the groups a friend is in": no message text, only what a list shows.
struct FriendGroup: Sendable {
    var id: String
    var name: String?
    var memberCount: Int
    /// When the last message was written, or when the group was created if none was.
    var lastActivityAt: Date
    /// The list's order key (the conversations' activity counter), for the cursor.
    var activity: Int64
}
