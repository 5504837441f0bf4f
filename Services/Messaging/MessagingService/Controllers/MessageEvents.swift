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
        await notify(sent.message, in: sent.conversation, members: sent.members, mentioned: Set(sent.message.mentions))
        await live("message.created", to: sent.members.map(\.userID), MessageView(sent.message))
    }

    /// An edited message: a live `message.edited` to every member; those the edit newly mentions are told as a
    /// mention would tell them (once per message: the notice key is the message's).
    func edited(_ edit: EditedMessage) async {
        let added = Set(edit.message.mentions).subtracting(edit.previousMentions)
        if !added.isEmpty {
            await notify(
                edit.message, in: edit.conversation, members: edit.members.filter { added.contains($0.userID) },
                mentioned: added)
        }
        await live("message.edited", to: edit.members.map(\.userID), MessageView(edit.message))
    }

    /// Notices to the members the notification rule picks.
    private func notify(
        _ message: MessageRecord, in conversation: ConversationRow, members: [MemberState], mentioned: Set<String>
    ) async {
        let kind = conversation.conversationKind
        var reasons: [NotificationReason: [String]] = [:]
        for member in members {
            let recipient = NotificationRule.Recipient(
                isSender: member.userID == message.senderId, conversationMuted: member.muted,
                topicPolicy: member.topicPolicy, mentioned: mentioned.contains(member.userID))
            if let reason = NotificationRule.reason(kind: kind, recipient) {
                reasons[reason, default: []].append(member.userID)
            }
        }
        guard !reasons.isEmpty else { return }
        let sender = (try? await directory.users(ids: [message.senderId]))?.first?.displayName ?? "Someone"
        let place =
            kind == .direct
            ? sender
            : "\(sender) in \(conversation.name ?? "a group")\(message.topicName.map { " #\($0)" } ?? "")"
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
