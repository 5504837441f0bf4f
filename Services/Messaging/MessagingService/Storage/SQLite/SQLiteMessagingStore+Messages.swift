import Foundation
import GRDB
import ServiceKit

extension SQLiteMessagingStore {
    // MARK: Sending

    func send(_ new: NewMessage, notices: ChangeNotices<SentMessage>?) async throws -> SentMessage {
        let sent = try await write { db in
            var (conversation, _) = try Self.membership(db, new.conversationID, new.senderID)
            if let key = new.idempotencyKey,
                let existing = try MessageRecord.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT \(MessageRecord.columns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                            WHERE m.conversation_id = ? AND m.sender_id = ? AND m.idempotency_key = ?
                            """), arguments: [new.conversationID, new.senderID, key])
            {
                return SentMessage(
                    message: try Self.withImages(db, [existing])[0], created: false, conversation: conversation,
                    members: [])
            }
            let topic = try Self.topic(for: new, in: conversation, db)
            // Ids only grow, even past a deleted newest message (migration v3); rows written around this path (a
            // benchmark's seed) cannot make it collide.
            guard
                let id = try Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT MAX(next, COALESCE((SELECT MAX(id) FROM messages), 0) + 1) FROM message_ids"))
            else { throw DatabaseError(message: "message_ids has no row") }
            try db.cachedStatement(sql: "UPDATE message_ids SET next = ?").execute(arguments: [id + 1])
            try db.cachedStatement(
                sql: """
                    INSERT INTO messages
                        (id, conversation_id, topic_id, sender_id, text, mentions, idempotency_key, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                id, new.conversationID, topic?.id, new.senderID, new.text, new.mentions.joined(separator: " "),
                new.idempotencyKey, new.now,
            ])
            try db.cachedStatement(sql: "UPDATE conversations SET last_message_id = ?, activity = ? WHERE id = ?")
                .execute(arguments: [id, id, new.conversationID])
            if let topicID = topic?.id {
                try db.cachedStatement(sql: "UPDATE topics SET last_message_id = ?, last_activity_at = ? WHERE id = ?")
                    .execute(arguments: [id, new.now, topicID])
            }
            conversation.lastMessageId = id
            conversation.activity = id
            let members = try Self.memberStates(db, new.conversationID, topic: topic?.id)
            var message = MessageRecord(
                id: id, conversationId: new.conversationID, topicId: topic?.id, topicName: topic?.name,
                senderId: new.senderID, text: new.text, mentions: new.mentions, createdAt: new.now)
            message.images = try Self.attachImages(db, new.imageIDs, to: id, in: new.conversationID, by: new.senderID)
            let sent = SentMessage(message: message, created: true, conversation: conversation, members: members)
            try notices?.record(sent, in: db)
            return sent
        }
        if sent.created { await notices?.committed(sent) }
        return sent
    }

    /// Each member's mute and their policy for the topic, as the notification rule reads them.
    private static func memberStates(_ db: Database, _ conversationID: String, topic: Int64?) throws -> [MemberState] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.user_id, m.muted, ts.policy FROM members m
                    LEFT JOIN topic_states ts ON ts.topic_id = ? AND ts.user_id = m.user_id
                    WHERE m.conversation_id = ?
                    """), arguments: [topic, conversationID]
        ).map {
            MemberState(
                userID: $0[0], muted: $0[1], topicPolicy: ($0[2] as String?).flatMap(TopicPolicy.init) ?? .inherit)
        }
    }

    /// The topic a new message is filed under: the one named by id (it must be this group's), or the one
    /// named by its `#tag`, created on first use with the sender following it.
    private static func topic(for new: NewMessage, in conversation: ConversationRecord, _ db: Database) throws
        -> TopicRecord?
    {
        guard new.topicID != nil || new.topicName != nil else { return nil }
        try requireGroup(conversation)
        if let topicID = new.topicID {
            guard let topic = try TopicRecord.fetchOne(db, key: topicID), topic.conversationId == conversation.id else {
                throw MessagingError.notFound("The topic")
            }
            return topic
        }
        guard let name = new.topicName else { return nil }
        if let topic = try TopicRecord.filter(
            TopicRecord.Columns.conversationID == conversation.id && TopicRecord.Columns.name == name
        )
        .fetchOne(db) {
            return topic
        }
        return try createTopic(db, name: name, in: conversation.id, by: new.senderID, now: new.now)
    }

    // MARK: Editing and deleting

    /// Replaces the text of the caller's own message; returns it and the members to tell, its notices recorded with it.
    func edit(
        _ messageID: Int64, in conversationID: String, by userID: String, text: String, mentions: [String], now: Date,
        notices: ChangeNotices<EditedMessage>?
    ) async throws -> EditedMessage {
        let edited = try await write { db in
            let (conversation, _) = try Self.membership(db, conversationID, userID)
            var message = try Self.message(db, messageID, in: conversationID)
            guard message.senderId == userID else {
                throw MessagingError.notYourMessage(action: "edit")
            }
            message.images = try Self.images(db, of: [messageID])[messageID] ?? []
            try ChatImages.requireContent(text: text, images: message.images.count)
            try db.execute(
                sql: "UPDATE messages SET text = ?, mentions = ?, edited_at = ? WHERE id = ?",
                arguments: [text, mentions.joined(separator: " "), now, messageID])
            let previousMentions = message.mentions
            message.text = text
            message.mentions = mentions
            message.editedAt = now
            let edited = EditedMessage(
                message: message, previousMentions: previousMentions, conversation: conversation,
                members: try Self.memberStates(db, conversationID, topic: message.topicId))
            try notices?.record(edited, in: db)
            return edited
        }
        await notices?.committed(edited)
        return edited
    }

    /// Deletes the caller's own message; returns the members to tell, its live event recorded with it.
    func delete(
        _ messageID: Int64, in conversationID: String, by userID: String, notices: ChangeNotices<DeletedMessage>?
    ) async throws -> DeletedMessage {
        let deleted = try await write { db in
            _ = try Self.membership(db, conversationID, userID)
            let message = try Self.message(db, messageID, in: conversationID)
            guard message.senderId == userID else {
                throw MessagingError.notYourMessage(action: "delete")
            }
            try Self.remove(db, message)
            let deleted = DeletedMessage(message, members: try Self.members(db, conversationID).map(\.userId))
            try notices?.record(deleted, in: db)
            return deleted
        }
        await notices?.committed(deleted)
        return deleted
    }

    /// Deletes a message; the list keeps its order (activity), only the previews move back to the message before.
    static func remove(_ db: Database, _ message: MessageRecord) throws {
        try db.execute(sql: "DELETE FROM messages WHERE id = ?", arguments: [message.id])
        try db.execute(
            sql: """
                UPDATE conversations SET last_message_id = (SELECT MAX(id) FROM messages WHERE conversation_id = ?)
                WHERE id = ?
                """, arguments: [message.conversationId, message.conversationId])
        if let topicID = message.topicId {
            try db.execute(
                sql:
                    "UPDATE topics SET last_message_id = (SELECT MAX(id) FROM messages WHERE topic_id = ?) WHERE id = ?",
                arguments: [topicID, topicID])
        }
    }

    static func message(_ db: Database, _ messageID: Int64, in conversationID: String) throws -> MessageRecord {
        guard
            let message = try MessageRecord.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(MessageRecord.columns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                        WHERE m.id = ? AND m.conversation_id = ?
                        """), arguments: [messageID, conversationID])
        else { throw MessagingError.notFound("The message") }
        return message
    }
}
