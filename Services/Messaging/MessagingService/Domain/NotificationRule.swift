/// A member's own setting for one topic (Zulip's visibility policy, without "unmuted").
enum TopicPolicy: String, Codable, Sendable, CaseIterable {
    /// No choice made: the conversation's setting applies.
    case inherit
    /// Notify me of every message in it.
    case followed
    /// Never notify me of it, and leave it out of the conversation's unread count.
    case muted
}

/// Whether a conversation is one-to-one or a named group.
enum ConversationKind: String, Codable, Sendable {
    case direct, group
}

/// Why a member is told about a new message, if they are.
enum NotificationReason: String, Sendable, Equatable {
    /// A direct message, or a message in a topic the member follows.
    case message
    /// The message mentions the member by `@username`.
    case mention
}

/// Who is told about a new message (issue 4): members who have not muted the conversation; in a group
/// only for topics they follow or messages that mention them; a muted topic never notifies, mention or not.
/// The issue wins over Zulip here, where a followed topic notifies even inside a muted conversation.
enum NotificationRule {
    struct Recipient: Sendable, Equatable {
        var isSender: Bool
        var conversationMuted: Bool
        /// The member's policy for the message's topic; `inherit` when the message has no topic.
        var topicPolicy: TopicPolicy
        var mentioned: Bool
    }

    static func reason(kind: ConversationKind, _ recipient: Recipient) -> NotificationReason? {
        if recipient.isSender || recipient.conversationMuted || recipient.topicPolicy == .muted { return nil }
        switch kind {
        case .direct:
            return recipient.mentioned ? .mention : .message
        case .group:
            if recipient.mentioned { return .mention }
            return recipient.topicPolicy == .followed ? .message : nil
        }
    }
}

/// What the notification rule needs to know about one member.
struct MemberState: Sendable, Equatable {
    var userID: String
    var muted: Bool
    var topicPolicy: TopicPolicy
}
