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

    /// A new message's notices and live event, reported by the store's write (``ChangeNotices``).
    func creation(sender: String) -> ChangeNotices<SentMessage> {
        ChangeNotices(
            sink: sink, notices: { Self.createdNotices($0, sender: sender) }, events: { Self.createdEvents($0) })
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

    /// An edit's mention notices and live event, reported by the store's write.
    func edit(sender: String) -> ChangeNotices<EditedMessage> {
        ChangeNotices(
            sink: sink, notices: { Self.editedNotices($0, sender: sender) }, events: { Self.editedEvents($0) })
    }

    /// The name an edit's notices give its sender, the editor (only one's own message is edited). Only an edit that
    /// mentions someone can have notices, so no other asks the identity service.
    func editorName(_ editorID: String, mentions: [String]) async -> String {
        mentions.isEmpty ? "Someone" : await senderName(editorID)
    }

    /// Those the edit newly mentions are told as a mention would tell them (once per message: the notice key is the
    /// message's).
    static func editedNotices(_ edit: EditedMessage, sender: String) -> [Notice] {
        let added = Set(edit.message.mentions).subtracting(edit.previousMentions)
        guard !added.isEmpty else { return [] }
        return notices(
            edit.message, in: edit.conversation, members: edit.members.filter { added.contains($0.userID) },
            mentioned: added, sender: sender)
    }

    /// A live `message.edited` to every member. Each edit is its own change: its time (to the millisecond) and text
    /// tell two edits of one message apart.
    static func editedEvents(_ edit: EditedMessage) -> [RealtimeEvent] {
        let editedAt = (edit.message.editedAt ?? edit.message.createdAt).timeIntervalSince1970
        let editMillis = Int64((editedAt * 1_000).rounded())
        let message = edit.message
        let key = "message.edited:\(message.conversationId):\(message.id):\(editMillis):\(message.text.hashValue)"
        return [liveEvent("message.edited", to: edit.members.map(\.userID), MessageView(message), key: key)]
            .compactMap(\.self)
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

    /// A deletion's live event, reported by the store's write.
    func deletion() -> ChangeNotices<DeletedMessage> {
        ChangeNotices(sink: sink, events: { Self.deletedEvents($0) })
    }

    /// A live `message.deleted` to every member. A second delete of one message is a 404 and publishes nothing: the
    /// event's own key is enough.
    static func deletedEvents(_ deleted: DeletedMessage) -> [RealtimeEvent] {
        let payload = Deleted(conversationId: deleted.conversationID, messageId: deleted.messageID)
        return [liveEvent("message.deleted", to: deleted.members, payload, key: nil)].compactMap(\.self)
    }

    /// A removal after reports: the sender's notice and the members' live `message.deleted`, reported by the store's
    /// write.
    func removal() -> ChangeNotices<DeletedMessage> {
        ChangeNotices(sink: sink, notices: { Self.removedNotices($0) }, events: { Self.deletedEvents($0) })
    }

    /// The sender is told their message was removed after reports (once: the key is the message's).
    static func removedNotices(_ removed: DeletedMessage) -> [Notice] {
        [
            Notice(
                recipients: [removed.senderID], kind: "messaging.message_removed",
                text: "A message you sent was removed after reports.",
                link: MessagingPaths.conversations + "/\(removed.conversationID)",
                idempotencyKey: "message-removed:\(removed.messageID)")
        ]
    }

    struct Reaction: Encodable, Sendable {
        var conversationId: String
        var messageId: Int64
        var emoji: String
        var userId: String
    }

    /// A reaction's live event, reported by the store's write.
    func reaction(_ reaction: Reaction, added: Bool) -> ChangeNotices<ReactionChange> {
        ChangeNotices(sink: sink, events: { Self.reactedEvents(reaction, added: added, $0) })
    }

    /// A reaction given or taken back: a live `reaction.added` or `reaction.removed` to every member. Only a change
    /// publishes (a repeated add or remove is none), so the event's own key is enough.
    static func reactedEvents(_ reaction: Reaction, added: Bool, _ change: ReactionChange) -> [RealtimeEvent] {
        guard change.changed else { return [] }
        let type = added ? "reaction.added" : "reaction.removed"
        return [liveEvent(type, to: change.members, reaction, key: nil)].compactMap(\.self)
    }

    // Typing and read markers go to the sink after the request, not through a store's transaction: typing stores
    // nothing, and a read marker's event only moves the reader's own badges, which their next read or list sets right.

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
