import Foundation
import PostgresNIO
import ServiceKit

/// Sending, editing and deleting messages.
extension PostgresMessagingStore {
    func send(_ new: NewMessage, notices: ChangeNotices<SentMessage>?) async throws -> SentMessage {
        let sent = try await write { session in
            // The lock orders this conversation's writers: the idempotency key and the topic name are looked up after
            // any earlier send committed, and ids are taken in commit order, so a reader paging forward never finds
            // an older id appear behind one it saw.
            var (conversation, _) = try await Self.membership(session, new.conversationID, new.senderID, lock: true)
            if let key = new.idempotencyKey,
                let existing = try await session.rows(
                    """
                    SELECT \(unescaped: Self.messageColumns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                    WHERE m.conversation_id = \(new.conversationID) AND m.sender_id = \(new.senderID)
                        AND m.idempotency_key = \(key)
                    """
                ).first.map(Self.message)
            {
                return SentMessage(
                    message: try await Self.withImages(session, [existing])[0], created: false,
                    conversation: conversation, members: [])
            }
            let topic = try await Self.topic(for: new, in: conversation, session)
            guard let id = try await session.value("SELECT nextval('message_ids')", as: Int64.self) else {
                throw MessagingError.notFound("The message id")
            }
            try await session.execute(
                """
                INSERT INTO messages
                    (id, conversation_id, topic_id, sender_id, text, mentions, idempotency_key, created_at)
                VALUES (\(id), \(new.conversationID), \(topic?.id), \(new.senderID), \(new.text),
                    \(new.mentions.joined(separator: " ")), \(new.idempotencyKey), \(new.now.storedPrecision))
                """)
            try await session.execute(
                "UPDATE conversations SET last_message_id = \(id), activity = \(id) WHERE id = \(new.conversationID)")
            if let topicID = topic?.id {
                try await session.execute(
                    """
                    UPDATE topics SET last_message_id = \(id), last_activity_at = \(new.now.storedPrecision)
                    WHERE id = \(topicID)
                    """)
            }
            conversation.lastMessageId = id
            conversation.activity = id
            let members = try await Self.memberStates(session, new.conversationID, topic: topic?.id)
            var message = MessageRecord(
                id: id, conversationId: new.conversationID, topicId: topic?.id, topicName: topic?.name,
                senderId: new.senderID, text: new.text, mentions: new.mentions, createdAt: new.now)
            message.images = try await Self.attachImages(
                session, new.imageIDs, to: id, in: new.conversationID, by: new.senderID)
            let sent = SentMessage(message: message, created: true, conversation: conversation, members: members)
            try await notices?.record(sent, in: session)
            return sent
        }
        if sent.created { await notices?.committed(sent) }
        return sent
    }

    /// Each member's mute and their policy for the topic, as the notification rule reads them.
    private static func memberStates(_ session: PostgresSession, _ conversationID: String, topic: Int64?) async throws
        -> [MemberState]
    {
        try await session.rows(
            """
            SELECT m.user_id, m.muted, ts.policy FROM members m
            LEFT JOIN topic_states ts ON ts.topic_id = \(topic)::bigint AND ts.user_id = m.user_id
            WHERE m.conversation_id = \(conversationID)
            """
        ).map { row in
            let (userID, muted, policy) = try row.decode((String, Bool, String?).self)
            return MemberState(userID: userID, muted: muted, topicPolicy: policy.flatMap(TopicPolicy.init) ?? .inherit)
        }
    }

    /// The topic a new message is filed under: the one named by id (it must be this group's), or the one
    /// named by its `#tag` (ASCII case-insensitively), created on first use with the sender following it.
    private static func topic(for new: NewMessage, in conversation: ConversationRecord, _ session: PostgresSession)
        async throws -> TopicRecord?
    {
        guard new.topicID != nil || new.topicName != nil else { return nil }
        try GroupRules.requireGroup(conversation.conversationKind)
        if let topicID = new.topicID {
            guard let topic = try await topic(session, topicID, in: conversation.id) else {
                throw MessagingError.notFound("The topic")
            }
            return topic
        }
        guard let name = new.topicName else { return nil }
        if let topic = try await topic(session, named: name, in: conversation.id) { return topic }
        return try await createTopic(session, name: name, in: conversation.id, by: new.senderID, now: new.now)
    }

    // MARK: Editing and deleting

    func edit(
        _ messageID: Int64, in conversationID: String, by userID: String, text: String, mentions: [String], now: Date,
        notices: ChangeNotices<EditedMessage>?
    ) async throws -> EditedMessage {
        let edited = try await write { session in
            let (conversation, _) = try await Self.membership(session, conversationID, userID, lock: true)
            var message = try await Self.message(session, messageID, in: conversationID)
            guard message.senderId == userID else { throw MessagingError.notYourMessage(action: "edit") }
            message.images = try await Self.images(session, of: [messageID])[messageID] ?? []
            try ChatImages.requireContent(text: text, images: message.images.count)
            try await session.execute(
                """
                UPDATE messages SET text = \(text), mentions = \(mentions.joined(separator: " ")),
                    edited_at = \(now.storedPrecision)
                WHERE id = \(messageID)
                """)
            let previousMentions = message.mentions
            message.text = text
            message.mentions = mentions
            message.editedAt = now
            let edited = EditedMessage(
                message: message, previousMentions: previousMentions, conversation: conversation,
                members: try await Self.memberStates(session, conversationID, topic: message.topicId))
            try await notices?.record(edited, in: session)
            return edited
        }
        await notices?.committed(edited)
        return edited
    }

    func delete(
        _ messageID: Int64, in conversationID: String, by userID: String, notices: ChangeNotices<DeletedMessage>?
    ) async throws -> DeletedMessage {
        let deleted = try await write { session in
            _ = try await Self.membership(session, conversationID, userID, lock: true)
            let message = try await Self.message(session, messageID, in: conversationID)
            guard message.senderId == userID else { throw MessagingError.notYourMessage(action: "delete") }
            try await Self.remove(session, message)
            let deleted = DeletedMessage(
                message, members: try await Self.members(session, conversationID).map(\.userId))
            try await notices?.record(deleted, in: session)
            return deleted
        }
        await notices?.committed(deleted)
        return deleted
    }

    /// Deletes a message; the list keeps its order (activity), only the previews move back to the message before.
    static func remove(_ session: PostgresSession, _ message: MessageRecord) async throws {
        try await session.execute("DELETE FROM messages WHERE id = \(message.id)")
        try await session.execute(
            """
            UPDATE conversations
            SET last_message_id = (SELECT MAX(id) FROM messages WHERE conversation_id = \(message.conversationId))
            WHERE id = \(message.conversationId)
            """)
        if let topicID = message.topicId {
            try await session.execute(
                """
                UPDATE topics SET last_message_id = (SELECT MAX(id) FROM messages WHERE topic_id = \(topicID))
                WHERE id = \(topicID)
                """)
        }
    }

    static func message(_ session: PostgresSession, _ messageID: Int64, in conversationID: String) async throws
        -> MessageRecord
    {
        guard
            let message = try await session.rows(
                """
                SELECT \(unescaped: messageColumns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                WHERE m.id = \(messageID) AND m.conversation_id = \(conversationID)
                """
            ).first.map(Self.message)
        else { throw MessagingError.notFound("The message") }
        return message
    }
}
