import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Sending, reading, editing and deleting messages; keyword search and read markers are
/// ``MessageSearchController``'s and ``ReadMarkersController``'s, whose routes it adds.
struct MessagesController {
    let store: any MessagingStore
    let directory: any UserDirectory
    let social: any SocialGraph
    let events: MessageEvents
    let clock: WallClock
    let logger: Logger
    /// The latest page of each conversation and topic read, under the conversation's revision. The database keeps the
    /// revision (triggers bump it), so a page kept by this replica is not served after a change made through another.
    let latestPages: KeptAnswers<LatestPage>

    /// What names a latest page: the conversation, the topic if one, the page's length and, for a page whose
    /// reactions say which are mine, its reader.
    struct LatestPage: Hashable, Sendable {
        var conversationID: String
        var topicID: Int64?
        var limit: Int
        var reader: String? = nil
    }

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        let messages = MessagingPaths.conversations + "/:conversation/messages"
        router.post(RouterPath(messages), use: send)
        router.get(RouterPath(messages), use: list)
        router.patch(RouterPath(messages + "/:message"), use: edit)
        router.delete(RouterPath(messages + "/:message"), use: delete)
        MessageSearchController(store: store, directory: directory).addRoutes(to: router)
        ReadMarkersController(store: store, events: events).addRoutes(to: router)
    }

    struct SendRequest: Decodable {
        /// May be empty when the message carries images.
        var text: String?
        /// Uploads of mine to this conversation (``ChatImagesController``) the message carries, in order.
        var imageIds: [String]?
        /// File the message under this topic of the group.
        var topicId: Int64?
        /// Or under the topic with this name, created on first use (like a leading `#name` in the text).
        var topic: String?
    }

    /// Sends a message; a repeated `Idempotency-Key` answers 200 with the message first sent.
    @Sendable func send(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<MessageView> {
        let conversationID = try context.parameters.require("conversation")
        let me = context.user.userID
        let input = try await request.decode(as: SendRequest.self, context: context)
        let key = try IdempotencyKey.of(request)
        let imageIDs = try ChatImages.imageIDs(input.imageIds)
        let minimum = imageIDs.isEmpty ? 1 : 0
        var text = try Validate.text(input.text ?? "", field: "text", min: minimum, max: MessageText.maximumLength)
        var topicName = try input.topic.map {
            try Validate.text($0, field: "topic", max: MessageText.maximumTopicLength)
        }
        // The member list is read only when needed: for a direct conversation's block check, or mentions.
        let conversation = try await store.conversationRecord(conversationID, asMember: me)
        if conversation.conversationKind == .group, input.topicId == nil, topicName == nil,
            let tagged = MessageText.leadingTopic(text)
        {
            topicName = tagged.topic
            text = try Validate.text(tagged.rest, field: "text", min: minimum, max: MessageText.maximumLength)
        }
        let needsMembers = conversation.conversationKind == .direct || text.contains("@")
        let members = needsMembers ? try await store.memberIDs(of: conversationID, asMember: me) : []
        if conversation.conversationKind == .direct, let other = members.first(where: { $0 != me }) {
            try GroupRules.requireMayMessage(blocked: try await social.relationship(me, other).blocked)
        }
        let sender = await events.senderName(me)
        let sent = try await store.send(
            NewMessage(
                conversationID: conversationID, senderID: me, text: text, topicID: input.topicId,
                topicName: topicName, mentions: await mentions(in: text, members: members),
                idempotencyKey: key, now: clock.now, imageIDs: imageIDs),
            notices: events.creation(sender: sender))
        return EditedResponse(status: sent.created ? .created : .ok, response: MessageView(sent.message))
    }

    /// The ids of the members the text names as `@username`. Mentions are a courtesy: when the identity
    /// service cannot be asked, the message is still sent, without them.
    private func mentions(in text: String, members: [String]) async -> [String] {
        let names = MessageText.mentionedUsernames(text)
        guard !names.isEmpty else { return [] }
        do {
            let byName = Dictionary(
                try await directory.users(ids: members).compactMap { user in
                    user.username.map { ($0.lowercased(), user.id) }
                },
                uniquingKeysWith: { first, _ in first })
            return names.compactMap { byName[$0] }
        } catch {
            logger.warning("mentions not resolved", metadata: ["error": "\(error)"])
            return []
        }
    }

    /// A page of messages around an anchor (`newest`, `oldest`, `first_unread` or a message id), or the
    /// page a cursor continues to; optionally one topic's messages only. The latest page is answered from
    /// `latestPages` while the conversation has not changed since it was read (a page of 50 costs reading and
    /// encoding 50 messages, more than half of the request).
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let conversationID = try context.parameters.require("conversation")
        let query = request.uri.queryParameters
        let page = try PageRequest(
            limit: query["limit"].map(String.init) ?? "50", cursor: query["cursor"].map(String.init))
        let topicID = try MessageQuery.topicID(query["topicId"])
        let anchor: MessageAnchor
        if let cursor = try page.decodeCursor(as: MessageCursor.self) {
            switch (cursor.before, cursor.after) {
            case (let before?, nil): anchor = .before(before)
            case (nil, let after?): anchor = .after(after)
            default: throw Problem.badRequest("invalid_cursor", "The cursor is not one this list returned.")
            }
        } else {
            anchor = try MessageQuery.anchor(query["anchor"].map(String.init))
        }
        let me = context.user.userID
        let latest =
            anchor == .newest
            ? LatestPage(conversationID: conversationID, topicID: topicID, limit: page.limit) : nil
        if let latest {
            // A page without reactions reads the same for every member; one with them is kept per reader.
            let revision = try await store.revision(of: conversationID, topic: topicID, asMember: me)
            var mine = latest
            mine.reader = me
            if let kept = latestPages.body(for: latest, revision: revision)
                ?? latestPages.body(for: mine, revision: revision)
            {
                return PlatformResponseEncoder.response(json: kept)
            }
        }
        let window = try await store.messages(
            in: conversationID, topic: topicID, asMember: me, anchor: anchor, limit: page.limit)
        let items = window.messages.map(MessageView.init)
        let body = ByteBuffer(
            bytes: try PlatformJSONWriter.encode(
                MessagePage(
                    items: items,
                    olderCursor: window.foundOldest
                        ? nil : items.first.map { PageCursor.encode(MessageCursor(before: $0.id)) },
                    newerCursor: window.foundNewest
                        ? nil : items.last.map { PageCursor.encode(MessageCursor(after: $0.id)) },
                    foundOldest: window.foundOldest, foundNewest: window.foundNewest, anchor: window.anchor)))
        // A conversation holding hidden messages reads differently for their senders: its pages are not shared.
        if var latest, !window.holdsHidden {
            if window.holdsReactions { latest.reader = me }
            latestPages.keep(body, for: latest, revision: window.revision)
        }
        return PlatformResponseEncoder.response(json: body)
    }

    struct EditRequest: Decodable {
        var text: String
    }

    @Sendable func edit(_ request: Request, context: AuthenticatedContext) async throws -> MessageView {
        let conversationID = try context.parameters.require("conversation")
        let messageID = try context.parameters.id("message", "The message")
        let input = try await request.decode(as: EditRequest.self, context: context)
        let text = try Validate.text(input.text, field: "text", min: 0, max: MessageText.maximumLength)
        let me = context.user.userID
        let members = try await store.memberIDs(of: conversationID, asMember: me)
        let mentioned = await mentions(in: text, members: members)
        let sender = await events.editorName(me, mentions: mentioned)
        let edited = try await store.edit(
            messageID, in: conversationID, by: me, text: text, mentions: mentioned, now: clock.now,
            notices: events.edit(sender: sender))
        return MessageView(edited.message)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let conversationID = try context.parameters.require("conversation")
        let messageID = try context.parameters.id("message", "The message")
        _ = try await store.delete(messageID, in: conversationID, by: context.user.userID, notices: events.deletion())
        return .noContent
    }
}
