import Foundation
import PlatformKit
import ServiceKit

/// Turns what happened to messages into notices (by the notification rule) and live events for members.
struct MessageEvents {
    let sink: any NoticeSink
    let directory: any UserDirectory

    static func link(_ message: MessageRecord) -> String {
        "\(MessagingPaths.conversations)/\(message.conversationId)/messages?anchor=\(message.id)"
    }

    /// A new message: a live `message.created` to every member, and notices to those the rule picks.
    func created(_ sent: SentMessage) async {
        let message = sent.message
        let kind = sent.conversation.conversationKind
        var reasons: [NotificationReason: [String]] = [:]
        for member in sent.members {
            let recipient = NotificationRule.Recipient(
                isSender: member.userID == message.senderId, conversationMuted: member.muted,
                topicPolicy: member.topicPolicy, mentioned: message.mentions.contains(member.userID))
            if let reason = NotificationRule.reason(kind: kind, recipient) {
                reasons[reason, default: []].append(member.userID)
            }
        }
        if !reasons.isEmpty {
            let sender = (try? await directory.users(ids: [message.senderId]))?.first?.displayName ?? "Someone"
            let place =
                kind == .direct
                ? sender
                : "\(sender) in \(sent.conversation.name ?? "a group")\(message.topicName.map { " #\($0)" } ?? "")"
            let preview = MessageText.preview(message.text)
            for (reason, recipients) in reasons.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                let notice =
                    reason == .mention
                    ? Notice(
                        recipients: recipients, kind: "messaging.mention", text: "\(place) mentioned you: \(preview)",
                        link: Self.link(message), idempotencyKey: "message:\(message.id):mention")
                    : Notice(
                        recipients: recipients, kind: "messaging.message", text: "\(place): \(preview)",
                        link: Self.link(message), idempotencyKey: "message:\(message.id)")
                await sink.publish(notice)
            }
        }
        await live("message.created", to: sent.members.map(\.userID), MessageView(message))
    }

    func edited(_ message: MessageRecord, members: [String]) async {
        await live("message.edited", to: members, MessageView(message))
    }

    struct Deleted: Encodable, Sendable {
        var conversationId: String
        var messageId: Int64
    }

    func deleted(_ messageID: Int64, in conversationID: String, members: [String]) async {
        await live("message.deleted", to: members, Deleted(conversationId: conversationID, messageId: messageID))
    }

    /// The reader's other devices update their badges.
    func read(_ view: ReadView, by userID: String) async {
        await live("conversation.read", to: [userID], view)
    }

    private func live(_ type: String, to recipients: [String], _ payload: some Encodable) async {
        guard !recipients.isEmpty, let event = try? RealtimeEvent(recipients: recipients, type: type, payload: payload)
        else { return }
        await sink.publish(event)
    }
}
