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

    /// A new message's notices and live event, recorded in the store's write when they go through the outbox (so they
    /// commit with the message, or not at all); `nil` when they go to the sink after it (``created(_:sender:)``).
    func recordedCreation(sender: String) -> ChangeNotices<SentMessage>? {
        sink.recorder.map { recorder in
            ChangeNotices(
                recorder: recorder, notices: { Self.createdNotices($0, sender: sender) },
                events: { Self.createdEvents($0) })
        }
    }

    /// A new message's notices and live event, handed to the sink after the write.
    func created(_ sent: SentMessage, sender: String) async {
        for notice in Self.createdNotices(sent, sender: sender) { await sink.publish(notice) }
        for event in Self.createdEvents(sent) { await sink.publish(event) }
    }

    /// The name notices give the sender ("Someone" when the identity service cannot say).
    func senderName(_ senderID: String) async -> String {
        (try? await directory.users(ids: [senderID]))?.first?.displayName ?? "Someone"
    }

    /// Notices to the members the notification rule picks; none for a repeated send.
    static func createdNotices(_ sent: SentMessage, sender: String) -> [Notice] {
        guard sent.created else { return [] }
        return notices(
            sent.message, in: sent.conversation, members: sent.members, mentioned: Set(sent.message.mentions),
            sender: sender)
    }

    /// A live `message.created` to every member; none for a repeated send. A replayed send (same Idempotency-Key)
    /// publishes nothing, so the event's own key is enough; one derived from the message id would drop a later
    /// message that reuses a deleted message's id.
    static func createdEvents(_ sent: SentMessage) -> [RealtimeEvent] {
        guard sent.created else { return [] }
        return [liveEvent("message.created", to: sent.members.map(\.userID), MessageView(sent.message), key: nil)]
            .compactMap(\.self)
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
        guard
            !MessageNotices.recipients(
                kind: conversation.conversationKind, senderID: message.senderId, members: members,
                mentioned: mentioned
            ).isEmpty
        else { return }
        let sender = await senderName(message.senderId)
        for notice in Self.notices(message, in: conversation, members: members, mentioned: mentioned, sender: sender) {
            await sink.publish(notice)
        }
    }

    private static func notices(
        _ message: MessageRecord, in conversation: ConversationRecord, members: [MemberState], mentioned: Set<String>,
        sender: String
    ) -> [Notice] {
        let kind = conversation.conversationKind
        let recipients = MessageNotices.recipients(
            kind: kind, senderID: message.senderId, members: members, mentioned: mentioned)
        return MessageNotices.plan(
            recipients, messageID: message.id, text: ChatImages.noticeText(message.text, images: message.images.count),
            sender: sender, kind: kind, groupName: conversation.name, topicName: message.topicName
        ).map { notice in
            Notice(
                recipients: notice.recipients,
                kind: notice.reason == .mention ? "messaging.mention" : "messaging.message", text: notice.text,
                link: link(message), idempotencyKey: notice.idempotencyKey)
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
        guard let event = Self.liveEvent(type, to: recipients, payload, key: key) else { return }
        await sink.publish(event)
    }

    private static func liveEvent(_ type: String, to recipients: [String], _ payload: some Encodable, key: String?)
        -> RealtimeEvent?
    {
        guard !recipients.isEmpty else { return nil }
        return try? RealtimeEvent(recipients: recipients, type: type, payload: payload, idempotencyKey: key)
    }
}
