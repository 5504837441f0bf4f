import Foundation
import PostgresNIO
import ServiceKit

/// Reading a conversation's history in pages around an anchor, and moving read markers.
extension PostgresMessagingStore {
    // MARK: Reading

    func messages(
        in conversationID: String, topic topicID: Int64?, asMember userID: String, anchor: MessageAnchor, limit: Int
    ) async throws -> MessageWindow {
        try await snapshot { session in
            var window = try await Self.window(
                session, in: conversationID, topic: topicID, asMember: userID, anchor: anchor, limit: limit)
            window.revision =
                try await session.value(
                    "SELECT revision FROM conversations WHERE id = \(conversationID)", as: Int64.self) ?? 0
            window.holdsHidden =
                try await session.value(
                    "SELECT EXISTS (SELECT 1 FROM messages WHERE conversation_id = \(conversationID) AND hidden)",
                    as: Bool.self) ?? false
            window.messages = try await Self.withImages(session, window.messages)
            let reactions = try await Self.reactions(session, of: window.messages.map(\.id), viewer: userID)
            window.holdsReactions = !reactions.isEmpty
            for index in window.messages.indices {
                window.messages[index].reactions = reactions[window.messages[index].id] ?? []
            }
            return window
        }
    }

    func revision(of conversationID: String, topic topicID: Int64?, asMember userID: String) async throws -> Int64 {
        try Self.requireStorable(conversationID, userID)
        // Asked before every latest page (a kept page answers if it is still current): batched and prepared.
        let key = RevisionKey(conversationID: conversationID, topicID: topicID, userID: userID)
        guard let (revision, topicFound) = try await revisions.value(for: key) else {
            throw MessagingError.notFound("The conversation")
        }
        guard topicFound else { throw MessagingError.notFound("The topic") }
        return revision
    }

    /// Whose revision of which conversation (and topic) is asked.
    struct RevisionKey: Hashable, Sendable {
        var conversationID: String
        var topicID: Int64?
        var userID: String
    }

    /// The revisions of members' conversations, and whether each topic asked for (if any) is one of the
    /// conversation's: one statement for all the keys, each answered by its place in the list.
    struct RevisionsOfConversations: PositionalLookup {
        static let sql = """
            SELECT k.n, c.revision,
                k.topic < 0 OR EXISTS (SELECT 1 FROM topics t WHERE t.id = k.topic AND t.conversation_id = c.id)
            FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS k(conversation, member, topic, n)
            JOIN conversations c ON c.id = k.conversation
            JOIN members m ON m.conversation_id = c.id AND m.user_id = k.member
            """
        typealias Answer = (Int64, Bool)
        let keys: [RevisionKey]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(keys.map(\.conversationID))
            bindings.append(keys.map(\.userID))
            // Topic ids are positive; -1 stands for "no topic asked".
            bindings.append(keys.map { $0.topicID ?? -1 })
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (place: Int64, answer: (Int64, Bool)) {
            let (place, revision, topicFound) = try row.decode((Int64, Int64, Bool).self)
            return (place, (revision, topicFound))
        }
    }

    /// The caller's read marker in the conversation, or in the topic when that is later; 404 for a non-member or a
    /// topic of another conversation.
    static func readMarker(
        _ session: PostgresSession, in conversationID: String, topic topicID: Int64?, asMember userID: String
    )
        async throws -> Int64
    {
        let (_, member) = try await membership(session, conversationID, userID)
        var topicReadID: Int64 = 0
        if let topicID {
            guard
                let row = try await session.rows(
                    """
                    SELECT ts.last_read_id FROM topics t
                    LEFT JOIN topic_states ts ON ts.topic_id = t.id AND ts.user_id = \(userID)
                    WHERE t.id = \(topicID) AND t.conversation_id = \(conversationID)
                    """
                ).first
            else { throw MessagingError.notFound("The topic") }
            topicReadID = try row.decode(Int64?.self) ?? 0
        }
        return max(member.lastReadId, topicReadID)
    }

    /// The page `anchor` names, after the membership checks.
    static func window(
        _ session: PostgresSession, in conversationID: String, topic topicID: Int64?, asMember userID: String,
        anchor: MessageAnchor, limit: Int
    ) async throws -> MessageWindow {
        let readID = try await readMarker(session, in: conversationID, topic: topicID, asMember: userID)
        let scope = Scope(conversationID: conversationID, topicID: topicID, viewer: userID)
        var anchor = anchor
        if anchor == .firstUnread {
            let first = try await firstUnread(session, scope, userID: userID, readID: readID)
            anchor = first.map(MessageAnchor.around) ?? .newest
        }
        switch anchor {
        case .newest, .firstUnread:
            let page = try await page(session, scope, older: true, than: .max, limit: limit + 1)
            return MessageWindow(
                messages: Array(page.prefix(limit).reversed()), foundOldest: page.count <= limit,
                foundNewest: true, anchor: nil)
        case .oldest:
            let page = try await page(session, scope, older: false, than: 0, limit: limit + 1)
            return MessageWindow(
                messages: Array(page.prefix(limit)), foundOldest: true, foundNewest: page.count <= limit,
                anchor: nil)
        case .before(let id):
            let page = try await page(session, scope, older: true, than: id, limit: limit + 1)
            return MessageWindow(
                messages: Array(page.prefix(limit).reversed()), foundOldest: page.count <= limit,
                foundNewest: false, anchor: nil)
        case .after(let id):
            let page = try await page(session, scope, older: false, than: id, limit: limit + 1)
            return MessageWindow(
                messages: Array(page.prefix(limit)), foundOldest: false, foundNewest: page.count <= limit,
                anchor: nil)
        case .around(let id):
            let before = max(limit / 2, 0)
            let older = try await page(session, scope, older: true, than: id, limit: before + 1)
            let newer = try await page(session, scope, older: false, than: id - 1, limit: limit - before + 1)
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

    /// Up to `limit` messages strictly older (newest first) or newer (oldest first) than `id`.
    static func page(_ session: PostgresSession, _ scope: Scope, older: Bool, than id: Int64, limit: Int) async throws
        -> [MessageRecord]
    {
        let base = "SELECT \(messageColumns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id"
        let query: PostgresQuery =
            switch (older, scope.topicID) {
            case (true, nil):
                """
                \(unescaped: base) WHERE m.conversation_id = \(scope.conversationID) AND m.id < \(id)
                    AND (NOT m.hidden OR m.sender_id = \(scope.viewer))
                ORDER BY m.id DESC LIMIT \(limit)
                """
            case (true, let topic?):
                """
                \(unescaped: base) WHERE m.topic_id = \(topic) AND m.id < \(id)
                    AND (NOT m.hidden OR m.sender_id = \(scope.viewer))
                ORDER BY m.id DESC LIMIT \(limit)
                """
            case (false, nil):
                """
                \(unescaped: base) WHERE m.conversation_id = \(scope.conversationID) AND m.id > \(id)
                    AND (NOT m.hidden OR m.sender_id = \(scope.viewer))
                ORDER BY m.id LIMIT \(limit)
                """
            case (false, let topic?):
                """
                \(unescaped: base) WHERE m.topic_id = \(topic) AND m.id > \(id)
                    AND (NOT m.hidden OR m.sender_id = \(scope.viewer))
                ORDER BY m.id LIMIT \(limit)
                """
            }
        return try await session.rows(query).map(Self.message)
    }

    /// The oldest message the member has not read (not theirs, not in a topic they muted or read past).
    static func firstUnread(_ session: PostgresSession, _ scope: Scope, userID: String, readID: Int64) async throws
        -> Int64?
    {
        if let topicID = scope.topicID {
            return try await session.value(
                """
                SELECT id FROM messages WHERE topic_id = \(topicID) AND id > \(readID) AND sender_id <> \(userID)
                    AND NOT hidden
                ORDER BY id LIMIT 1
                """, as: Int64.self)
        }
        return try await session.value(
            """
            SELECT m.id FROM messages m
            LEFT JOIN topic_states ts ON ts.topic_id = m.topic_id AND ts.user_id = \(userID)
            WHERE m.conversation_id = \(scope.conversationID) AND m.id > \(readID) AND m.sender_id <> \(userID)
                AND NOT m.hidden AND (ts.topic_id IS NULL OR (ts.policy <> 'muted' AND m.id > ts.last_read_id))
            ORDER BY m.id LIMIT 1
            """, as: Int64.self)
    }

    // MARK: Read markers

    func markRead(_ conversationID: String, upTo messageID: Int64, topic topicID: Int64?, by userID: String)
        async throws -> (lastReadID: Int64, unread: UnreadCount)
    {
        try await write { session in
            _ = try await Self.membership(session, conversationID, userID)
            let message = try await Self.message(session, messageID, in: conversationID)
            let lastReadID: Int64
            if let topicID {
                guard message.topicId == topicID else { throw MessagingError.notFound("The message in this topic") }
                lastReadID =
                    try await session.value(
                        """
                        INSERT INTO topic_states (topic_id, conversation_id, user_id, last_read_id)
                        VALUES (\(topicID), \(conversationID), \(userID), \(messageID))
                        ON CONFLICT (topic_id, user_id)
                        DO UPDATE SET last_read_id = GREATEST(topic_states.last_read_id, excluded.last_read_id)
                        RETURNING last_read_id
                        """, as: Int64.self) ?? messageID
            } else {
                lastReadID =
                    try await session.value(
                        """
                        UPDATE members SET last_read_id = GREATEST(last_read_id, \(messageID))
                        WHERE conversation_id = \(conversationID) AND user_id = \(userID)
                        RETURNING last_read_id
                        """, as: Int64.self) ?? messageID
            }
            let member = try await Self.membership(session, conversationID, userID).1
            return (
                lastReadID, try await Self.unread(session, conversationID, userID: userID, readID: member.lastReadId)
            )
        }
    }
}
