import Foundation
import GRDB

/// Reading a conversation's history in pages around an anchor, and moving read markers.
extension SQLiteMessagingStore {
    // MARK: Reading

    /// A page of the conversation (or one topic of it) and the revision it was read at, from one snapshot.
    func messages(
        in conversationID: String, topic topicID: Int64?, asMember userID: String, anchor: MessageAnchor, limit: Int
    )
        async throws -> MessageWindow
    {
        try await read { db in
            var window = try Self.window(
                db, in: conversationID, topic: topicID, asMember: userID, anchor: anchor, limit: limit)
            window.revision = try Self.revision(db, conversationID)
            window.holdsHidden =
                try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM messages WHERE conversation_id = ? AND hidden = 1)"),
                    arguments: [conversationID]) ?? false
            window.messages = try Self.withImages(db, window.messages)
            let reactions = try Self.reactions(db, of: window.messages.map(\.id), viewer: userID)
            window.holdsReactions = !reactions.isEmpty
            for index in window.messages.indices {
                window.messages[index].reactions = reactions[window.messages[index].id] ?? []
            }
            return window
        }
    }

    /// The revision of a conversation the caller may read, with the same checks (and 404s) as reading a page of it:
    /// the membership and the revision in one statement, since a kept page is answered after this read alone.
    func revision(of conversationID: String, topic topicID: Int64?, asMember userID: String) async throws -> Int64 {
        try await read { db in
            guard
                let revision = try Int64.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT c.revision FROM conversations c
                            JOIN members m ON m.conversation_id = c.id AND m.user_id = ?
                            WHERE c.id = ?
                            """), arguments: [userID, conversationID])
            else { throw MessagingError.notFound("The conversation") }
            if let topicID {
                let inConversation = try Bool.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT EXISTS (SELECT 1 FROM topics WHERE id = ? AND conversation_id = ?)"),
                    arguments: [topicID, conversationID])
                guard inConversation == true else { throw MessagingError.notFound("The topic") }
            }
            return revision
        }
    }

    /// A conversation's revision: triggers bump it on every change to its messages or its topics' names, so every
    /// page of it read at one revision is the same page while the revision stays (`MessagingMigrations`, v4).
    static func revision(_ db: Database, _ conversationID: String) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT revision FROM conversations WHERE id = ?"), arguments: [conversationID]
        ) ?? 0
    }

    /// The caller's read marker in the conversation, or in the topic when that is later; 404 for a non-member or a
    /// topic of another conversation.
    static func readMarker(_ db: Database, in conversationID: String, topic topicID: Int64?, asMember userID: String)
        throws -> Int64
    {
        let (_, member) = try membership(db, conversationID, userID)
        var topicReadID: Int64 = 0
        if let topicID {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT ts.last_read_id FROM topics t
                            LEFT JOIN topic_states ts ON ts.topic_id = t.id AND ts.user_id = ?
                            WHERE t.id = ? AND t.conversation_id = ?
                            """), arguments: [userID, topicID, conversationID])
            else { throw MessagingError.notFound("The topic") }
            topicReadID = row[0] ?? 0
        }
        return max(member.lastReadId, topicReadID)
    }

    /// The page `anchor` names, after the membership checks.
    static func window(
        _ db: Database, in conversationID: String, topic topicID: Int64?, asMember userID: String,
        anchor: MessageAnchor, limit: Int
    ) throws -> MessageWindow {
        let readID = try readMarker(db, in: conversationID, topic: topicID, asMember: userID)
        let scope = Scope(conversationID: conversationID, topicID: topicID, viewer: userID)
        var anchor = anchor
        if anchor == .firstUnread {
            let first = try Self.firstUnread(db, scope, userID: userID, readID: readID)
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

    /// A conversation, or one topic of it.
    struct Scope {
        var conversationID: String
        var topicID: Int64?
        /// Who reads: hidden messages are theirs only.
        var viewer: String
    }

    enum Direction { case older, newer }

    /// Up to `limit` messages strictly older (newest first) or newer (oldest first) than `id`.
    static func page(_ db: Database, _ scope: Scope, _ direction: Direction, than id: Int64, limit: Int) throws
        -> [MessageRecord]
    {
        let base = "SELECT \(MessageRecord.columns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id"
        let visible = "AND (m.hidden = 0 OR m.sender_id = ?)"
        let sql: String
        let arguments: StatementArguments
        switch (direction, scope.topicID) {
        case (.older, nil):
            sql = base + " WHERE m.conversation_id = ? AND m.id < ? \(visible) ORDER BY m.id DESC LIMIT ?"
            arguments = [scope.conversationID, id, scope.viewer, limit]
        case (.older, let topic?):
            sql = base + " WHERE m.topic_id = ? AND m.id < ? \(visible) ORDER BY m.id DESC LIMIT ?"
            arguments = [topic, id, scope.viewer, limit]
        case (.newer, nil):
            sql = base + " WHERE m.conversation_id = ? AND m.id > ? \(visible) ORDER BY m.id LIMIT ?"
            arguments = [scope.conversationID, id, scope.viewer, limit]
        case (.newer, let topic?):
            sql = base + " WHERE m.topic_id = ? AND m.id > ? \(visible) ORDER BY m.id LIMIT ?"
            arguments = [topic, id, scope.viewer, limit]
        }
        return try MessageRecord.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The oldest message the member has not read (not theirs, not in a topic they muted or read past).
    static func firstUnread(_ db: Database, _ scope: Scope, userID: String, readID: Int64) throws -> Int64? {
        if let topicID = scope.topicID {
            return try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT id FROM messages WHERE topic_id = ? AND id > ? AND sender_id <> ? AND hidden = 0
                        ORDER BY id LIMIT 1
                        """),
                arguments: [topicID, readID, userID])
        }
        return try Int64.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT m.id FROM messages m
                    LEFT JOIN topic_states ts ON ts.topic_id = m.topic_id AND ts.user_id = ?
                    WHERE m.conversation_id = ? AND m.id > ? AND m.sender_id <> ? AND m.hidden = 0
                        AND (ts.topic_id IS NULL OR (ts.policy <> 'muted' AND m.id > ts.last_read_id))
                    ORDER BY m.id LIMIT 1
                    """), arguments: [userID, scope.conversationID, readID, userID])
    }

    // MARK: Read markers

    /// Marks everything up to `messageID` read, in the whole conversation or in one topic. Markers only move
    /// forward. Returns the conversation's unread count afterwards.
    func markRead(_ conversationID: String, upTo messageID: Int64, topic topicID: Int64?, by userID: String)
        async throws -> (lastReadID: Int64, unread: UnreadCount)
    {
        try await write { db in
            _ = try Self.membership(db, conversationID, userID)
            let message = try Self.message(db, messageID, in: conversationID)
            let lastReadID: Int64
            if let topicID {
                guard message.topicId == topicID else { throw MessagingError.notFound("The message in this topic") }
                try db.execute(
                    sql: """
                        INSERT INTO topic_states (topic_id, user_id, last_read_id) VALUES (?, ?, ?)
                        ON CONFLICT (topic_id, user_id) DO UPDATE SET last_read_id = MAX(last_read_id, excluded.last_read_id)
                        """, arguments: [topicID, userID, messageID])
                lastReadID =
                    try Int64.fetchOne(
                        db.cachedStatement(
                            sql: "SELECT last_read_id FROM topic_states WHERE topic_id = ? AND user_id = ?"),
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
