import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// A message about to be stored, already validated.
struct NewMessage: Sendable {
    var conversationID: String
    var senderID: String
    var text: String
    /// The topic chosen by id, or
    var topicID: Int64?
    /// by name (a leading `#tag`), created on first use.
    var topicName: String?
    /// Ids of the members the text mentions.
    var mentions: [String]
    var idempotencyKey: String?
    var now: Date
}

/// What the notification rule needs to know about one member.
struct MemberState: Sendable, Equatable {
    var userID: String
    var muted: Bool
    var topicPolicy: TopicPolicy
}

/// The outcome of an edit: the message as it is now, and who it mentioned before.
struct EditedMessage: Sendable {
    var message: MessageRecord
    var previousMentions: [String]
    var conversation: ConversationRow
    /// Every member, for notices and live events.
    var members: [MemberState]
}

/// The outcome of a send.
struct SentMessage: Sendable {
    var message: MessageRecord
    /// `false` when the idempotency key named a message sent before: nothing new was stored.
    var created: Bool
    var conversation: ConversationRow
    /// Every member, for notices and live events (empty for a repeated send).
    var members: [MemberState]
}

/// Where a page of messages is taken from.
enum MessageAnchor: Sendable, Equatable {
    case newest, oldest, firstUnread
    /// Around a message id: half before it, it and half after.
    case around(Int64)
    /// Strictly older than an id (a cursor going back).
    case before(Int64)
    /// Strictly newer than an id (a cursor going forward).
    case after(Int64)
}

/// A page of messages, oldest first, and whether either end of the history is in it.
struct MessageWindow: Sendable {
    var messages: [MessageRecord]
    var foundOldest: Bool
    var foundNewest: Bool
    /// The message the page was anchored on (`around`, `firstUnread`), if any.
    var anchor: Int64?
}

extension MessagingDatabase {
    // MARK: Sending

    func send(_ new: NewMessage) async throws -> SentMessage {
        try await writer.write { db in
            var (conversation, _) = try Self.membership(db, new.conversationID, new.senderID)
            if let key = new.idempotencyKey,
                let existing = try MessageRecord.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT \(MessageRecord.columns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
                            WHERE m.conversation_id = ? AND m.sender_id = ? AND m.idempotency_key = ?
                            """), arguments: [new.conversationID, new.senderID, key])
            {
                return SentMessage(message: existing, created: false, conversation: conversation, members: [])
            }
            let topic = try Self.topic(for: new, in: conversation, db)
            try db.cachedStatement(
                sql: """
                    INSERT INTO messages (conversation_id, topic_id, sender_id, text, mentions, idempotency_key, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                new.conversationID, topic?.id, new.senderID, new.text, new.mentions.joined(separator: " "),
                new.idempotencyKey, new.now,
            ])
            let id = db.lastInsertedRowID
            try db.cachedStatement(sql: "UPDATE conversations SET last_message_id = ?, activity = ? WHERE id = ?")
                .execute(arguments: [id, id, new.conversationID])
            if let topicID = topic?.id {
                try db.cachedStatement(sql: "UPDATE topics SET last_message_id = ?, last_activity_at = ? WHERE id = ?")
                    .execute(arguments: [id, new.now, topicID])
            }
            conversation.lastMessageId = id
            conversation.activity = id
            let members = try Self.memberStates(db, new.conversationID, topic: topic?.id)
            let message = MessageRecord(
                id: id, conversationId: new.conversationID, topicId: topic?.id, topicName: topic?.name,
                senderId: new.senderID, text: new.text, mentions: new.mentions, createdAt: new.now)
            return SentMessage(message: message, created: true, conversation: conversation, members: members)
        }
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
    private static func topic(for new: NewMessage, in conversation: ConversationRow, _ db: Database) throws
        -> TopicRow?
    {
        guard new.topicID != nil || new.topicName != nil else { return nil }
        try requireGroup(conversation)
        if let topicID = new.topicID {
            guard let topic = try TopicRow.fetchOne(db, key: topicID), topic.conversationId == conversation.id else {
                throw Problem.notFound("The topic")
            }
            return topic
        }
        guard let name = new.topicName else { return nil }
        if let topic = try TopicRow.filter(Column("conversation_id") == conversation.id && Column("name") == name)
            .fetchOne(db)
        {
            return topic
        }
        return try createTopic(db, name: name, in: conversation.id, by: new.senderID, now: new.now)
    }

    // MARK: Reading

    func messages(
        in conversationID: String, topic topicID: Int64?, asMember userID: String, anchor: MessageAnchor, limit: Int
    )
        async throws -> MessageWindow
    {
        try await writer.read { db in
            let (_, member) = try Self.membership(db, conversationID, userID)
            var topicReadID: Int64 = 0
            if let topicID {
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT ts.last_read_id FROM topics t
                            LEFT JOIN topic_states ts ON ts.topic_id = t.id AND ts.user_id = ?
                            WHERE t.id = ? AND t.conversation_id = ?
                            """, arguments: [userID, topicID, conversationID])
                else { throw Problem.notFound("The topic") }
                topicReadID = row[0] ?? 0
            }
            let scope = Scope(conversationID: conversationID, topicID: topicID)
            var anchor = anchor
            if anchor == .firstUnread {
                let first = try Self.firstUnread(
                    db, scope, userID: userID, readID: max(member.lastReadId, topicReadID))
                anchor = first.map(MessageAnchor.around) ?? .newest
            }
            switch anchor {
            case .newest, .firstUnread:
                let page = try Self.page(db, scope, .older, than: .max, limit: limit + 1)
                return MessageWindow(
                    messages: Array(page.prefix(limit).reversed()), foundOldest: page.count <= limit,
                    foundNewest: true, anchor: nil)
            case .oldest:
                let page = try Self.page(db, scope, .newer, than: 0, limit: limit + 1)
                return MessageWindow(
                    messages: Array(page.prefix(limit)), foundOldest: true, foundNewest: page.count <= limit,
                    anchor: nil)
            case .before(let id):
                let page = try Self.page(db, scope, .older, than: id, limit: limit + 1)
                return MessageWindow(
                    messages: Array(page.prefix(limit).reversed()), foundOldest: page.count <= limit,
                    foundNewest: false, anchor: nil)
            case .after(let id):
                let page = try Self.page(db, scope, .newer, than: id, limit: limit + 1)
                return MessageWindow(
                    messages: Array(page.prefix(limit)), foundOldest: false, foundNewest: page.count <= limit,
                    anchor: nil)
            case .around(let id):
                let before = max(limit / 2, 0)
                let older = try Self.page(db, scope, .older, than: id, limit: before + 1)
                let newer = try Self.page(db, scope, .newer, than: id - 1, limit: limit - before + 1)
                return MessageWindow(
                    messages: Array(older.prefix(before).reversed()) + Array(newer.prefix(limit - before)),
                    foundOldest: older.count <= before, foundNewest: newer.count <= limit - before, anchor: id)
            }
        }
    }

    /// A conversation, or one topic of it.
    struct Scope {
        var conversationID: String
        var topicID: Int64?
    }

    enum Direction { case older, newer }

    /// Up to `limit` messages strictly older (newest first) or newer (oldest first) than `id`.
    static func page(_ db: Database, _ scope: Scope, _ direction: Direction, than id: Int64, limit: Int) throws
        -> [MessageRecord]
    {
        let base = "SELECT \(MessageRecord.columns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id"
        let sql: String
        let arguments: StatementArguments
        switch (direction, scope.topicID) {
        case (.older, nil):
            sql = base + " WHERE m.conversation_id = ? AND m.id < ? ORDER BY m.id DESC LIMIT ?"
            arguments = [scope.conversationID, id, limit]
        case (.older, let topic?):
            sql = base + " WHERE m.topic_id = ? AND m.id < ? ORDER BY m.id DESC LIMIT ?"
            arguments = [topic, id, limit]
        case (.newer, nil):
            sql = base + " WHERE m.conversation_id = ? AND m.id > ? ORDER BY m.id LIMIT ?"
            arguments = [scope.conversationID, id, limit]
        case (.newer, let topic?):
            sql = base + " WHERE m.topic_id = ? AND m.id > ? ORDER BY m.id LIMIT ?"
            arguments = [topic, id, limit]
        }
        return try MessageRecord.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The oldest message the member has not read (not theirs, not in a topic they muted or read past).
    static func firstUnread(_ db: Database, _ scope: Scope, userID: String, readID: Int64) throws -> Int64? {
        if let topicID = scope.topicID {
            return try Int64.fetchOne(
                db.cachedStatement(
                    sql: "SELECT id FROM messages WHERE topic_id = ? AND id > ? AND sender_id <> ? ORDER BY id LIMIT 1"),
                arguments: [topicID, readID, userID])
        }
        return try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT m.id FROM messages m
                    LEFT JOIN topic_states ts ON ts.topic_id = m.topic_id AND ts.user_id = ?
                    WHERE m.conversation_id = ? AND m.id > ? AND m.sender_id <> ?
                        AND (ts.topic_id IS NULL OR (ts.policy <> 'muted' AND m.id > ts.last_read_id))
                    ORDER BY m.id LIMIT 1
                    """), arguments: [userID, scope.conversationID, readID, userID])
    }

    // MARK: Editing and deleting

    /// Replaces the text of the caller's own message; returns it and the members to tell.
    func edit(
        _ messageID: Int64, in conversationID: String, by userID: String, text: String, mentions: [String], now: Date
    ) async throws -> EditedMessage {
        try await writer.write { db in
            let (conversation, _) = try Self.membership(db, conversationID, userID)
            var message = try Self.message(db, messageID, in: conversationID)
            guard message.senderId == userID else {
                throw Problem.forbidden("not_your_message", "You can only edit your own messages.")
            }
            try db.execute(
                sql: "UPDATE messages SET text = ?, mentions = ?, edited_at = ? WHERE id = ?",
                arguments: [text, mentions.joined(separator: " "), now, messageID])
            let previousMentions = message.mentions
            message.text = text
            message.mentions = mentions
            message.editedAt = now
            return EditedMessage(
                message: message, previousMentions: previousMentions, conversation: conversation,
                members: try Self.memberStates(db, conversationID, topic: message.topicId))
        }
    }

    /// Deletes the caller's own message; returns the members to tell.
    func delete(_ messageID: Int64, in conversationID: String, by userID: String) async throws -> [String] {
        try await writer.write { db in
            _ = try Self.membership(db, conversationID, userID)
            let message = try Self.message(db, messageID, in: conversationID)
            guard message.senderId == userID else {
                throw Problem.forbidden("not_your_message", "You can only delete your own messages.")
            }
            try db.execute(sql: "DELETE FROM messages WHERE id = ?", arguments: [messageID])
            // The list keeps its order (activity); only the preview moves back to the message before.
            try db.execute(
                sql: """
                    UPDATE conversations SET last_message_id = (SELECT MAX(id) FROM messages WHERE conversation_id = ?)
                    WHERE id = ?
                    """, arguments: [conversationID, conversationID])
            if let topicID = message.topicId {
                try db.execute(
                    sql:
                        "UPDATE topics SET last_message_id = (SELECT MAX(id) FROM messages WHERE topic_id = ?) WHERE id = ?",
                    arguments: [topicID, topicID])
            }
            return try Self.members(db, conversationID).map(\.userId)
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
        else { throw Problem.notFound("The message") }
        return message
    }

    // MARK: Read markers

    /// Marks everything up to `messageID` read, in the whole conversation or in one topic. Markers only move
    /// forward. Returns the conversation's unread count afterwards.
    func markRead(_ conversationID: String, upTo messageID: Int64, topic topicID: Int64?, by userID: String)
        async throws -> (lastReadID: Int64, unread: UnreadCount)
    {
        try await writer.write { db in
            _ = try Self.membership(db, conversationID, userID)
            let message = try Self.message(db, messageID, in: conversationID)
            let lastReadID: Int64
            if let topicID {
                guard message.topicId == topicID else { throw Problem.notFound("The message in this topic") }
                try db.execute(
                    sql: """
                        INSERT INTO topic_states (topic_id, user_id, last_read_id) VALUES (?, ?, ?)
                        ON CONFLICT (topic_id, user_id) DO UPDATE SET last_read_id = MAX(last_read_id, excluded.last_read_id)
                        """, arguments: [topicID, userID, messageID])
                lastReadID =
                    try Int64.fetchOne(
                        db, sql: "SELECT last_read_id FROM topic_states WHERE topic_id = ? AND user_id = ?",
                        arguments: [topicID, userID]) ?? messageID
            } else {
                try db.execute(
                    sql: """
                        UPDATE members SET last_read_id = MAX(last_read_id, ?) WHERE conversation_id = ? AND user_id = ?
                        """, arguments: [messageID, conversationID, userID])
                lastReadID = try Self.membership(db, conversationID, userID).1.lastReadId
            }
            let member = try Self.membership(db, conversationID, userID).1
            return (lastReadID, try Self.unread(db, conversationID, userID: userID, readID: member.lastReadId))
        }
    }
}
