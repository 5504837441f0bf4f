/// What members are told about a message: who (by the notification rule) and in which words.
enum MessageNotices {
    /// One notice to send: its reason, recipients, text and de-duplication key.
    struct Planned: Sendable, Equatable {
        var reason: NotificationReason
        var recipients: [String]
        var text: String
        var idempotencyKey: String
    }

    /// The members the rule picks, grouped by reason, in the reasons' order (`mention`, then `message`).
    static func recipients(
        kind: ConversationKind, senderID: String, members: [MemberState], mentioned: Set<String>
    ) -> [(reason: NotificationReason, recipients: [String])] {
        var reasons: [NotificationReason: [String]] = [:]
        for member in members {
            let recipient = NotificationRule.Recipient(
                isSender: member.userID == senderID, conversationMuted: member.muted,
                topicPolicy: member.topicPolicy, mentioned: mentioned.contains(member.userID))
            if let reason = NotificationRule.reason(kind: kind, recipient) {
                reasons[reason, default: []].append(member.userID)
            }
        }
        return reasons.sorted { $0.key.rawValue < $1.key.rawValue }.map { ($0.key, $0.value) }
    }

    /// The notices for message `messageID`, worded with the sender's name and where it was said.
    static func plan(
        _ recipients: [(reason: NotificationReason, recipients: [String])], messageID: Int64, text: String,
        sender: String, kind: ConversationKind, groupName: String?, topicName: String?
    ) -> [Planned] {
        let place =
            kind == .direct ? sender : "\(sender) in \(groupName ?? "a group")\(topicName.map { " #\($0)" } ?? "")"
        let preview = MessageText.preview(text)
        return recipients.map { reason, recipients in
            reason == .mention
                ? Planned(
                    reason: reason, recipients: recipients, text: "\(place) mentioned you: \(preview)",
                    idempotencyKey: "message:\(messageID):mention")
                : Planned(
                    reason: reason, recipients: recipients, text: "\(place): \(preview)",
                    idempotencyKey: "message:\(messageID)")
        }
    }
}
