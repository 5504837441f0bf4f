import Foundation
import PlatformKit
import ServiceKit

/// The outbound side of messages: notices (to the members the notification rule picks) and live events (to every
/// member) through the notifications service's sink. Tests pass a recording ``NoticeSink``.
struct MessageEvents {
    let sink: any NoticeSink
    let directory: any UserDirectory

    static func link(_ message: MessageRecord) -> String {
        "\(MessagingPaths.conversations)/\(message.conversationId)/messages?anchor=\(message.id)"
    }

    /// A new message: a live `message.created` to every member, and notices to those the rule picks.
    func created(_ sent: SentMessage) async {
        await notify(sent.message, in: sent.conversation, members: sent.members, mentioned: Set(sent.message.mentions))
        // A replayed send (same Idempotency-Key) publishes nothing, so the event's own key (kept across the sink's
        // retries) is enough; one derived from the message id would drop a later message that reuses a deleted
        // message's id.
        await live("message.created", to: sent.members.map(\.userID), MessageView(sent.message), key: nil)
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
        // Each edit is its own change: its time (to the millisecond) and text tell two edits of one message apart.
        let editedAt = (edit.message.editedAt ?? edit.message.createdAt).timeIntervalSince1970
        let editMillis = Int64((editedAt * 1_000).rounded())
        await live(
            "message.edited", to: edit.members.map(\.userID), MessageView(edit.message),
            key:
                "message.edited:\(edit.message.conversationId):\(edit.message.id):\(editMillis):\(edit.message.text.hashValue)"
        )
    }

    /// Notices to the members the notification rule picks, named after the sender.
    private func notify(
        _ message: MessageRecord, in conversation: ConversationRecord, members: [MemberState], mentioned: Set<String>
    ) async {
        let kind = conversation.conversationKind
        let recipients = MessageNotices.recipients(
            kind: kind, senderID: message.senderId, members: members, mentioned: mentioned)
        guard !recipients.isEmpty else { return }
        let sender = (try? await directory.users(ids: [message.senderId]))?.first?.displayName ?? "Someone"
        let planned = MessageNotices.plan(
            recipients, messageID: message.id, text: ChatImages.noticeText(message.text, images: message.images.count),
            sender: sender, kind: kind, groupName: conversation.name, topicName: message.topicName)
        for notice in planned {
            await sink.publish(
                Notice(
                    recipients: notice.recipients,
                    kind: notice.reason == .mention ? "messaging.mention" : "messaging.message", text: notice.text,
                    link: Self.link(message), idempotencyKey: notice.idempotencyKey))
        }
    }

    struct Deleted: Encodable, Sendable {
        var conversationId: String
        var messageId: Int64
    }

    func deleted(_ messageID: Int64, in conversationID: String, members: [String]) async {
        // A second delete of one message is a 404 and publishes nothing: the event's own key is enough.
        await live(
            "message.deleted", to: members, Deleted(conversationId: conversationID, messageId: messageID), key: nil)
    }

    struct Reaction: Encodable, Sendable {
        var conversationId: String
        var messageId: Int64
        var emoji: String
        var userId: String
    }

    /// A reaction given or taken back: a live `reaction.added` or `reaction.removed` to every member. Only a change
    /// publishes (a repeated add or remove is none), so the event's own key is enough.
    func reacted(_ reaction: Reaction, added: Bool, members: [String]) async {
        await live(added ? "reaction.added" : "reaction.removed", to: members, reaction, key: nil)
    }

    struct Typing: Encodable, Sendable {
        var conversationId: String
        var userId: String
    }

    /// A member is typing: a live `typing` to the others, each its own event.
    func typing(in conversationID: String, by userID: String, to others: [String]) async {
        await live("typing", to: others, Typing(conversationId: conversationID, userId: userID), key: nil)
    }

    /// The reader's other devices update their badges. The marker only moves forward, so marker and unread count
    /// name the change: reading to the same place again with nothing new is no change.
    func read(_ view: ReadView, by userID: String) async {
        let topic = view.topicId.map(String.init) ?? "-"
        await live(
            "conversation.read", to: [userID], view,
            key: "conversation.read:\(view.conversationId):\(topic):\(userID):\(view.lastReadId):\(view.unreadCount)")
    }

    /// One live event per change: the event's key (`key` when the change names one, else its own) travels with
    /// every retry of the post, so the notifications service drops a repeated delivery.
    private func live(_ type: String, to recipients: [String], _ payload: some Encodable, key: String?) async {
        guard !recipients.isEmpty,
            let event = try? RealtimeEvent(recipients: recipients, type: type, payload: payload, idempotencyKey: key)
        else { return }
        await sink.publish(event)
    }
}
