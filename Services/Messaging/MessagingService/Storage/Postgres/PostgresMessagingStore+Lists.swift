import Foundation
import PostgresNIO
import ServiceKit

/// Conversation lists, unread counts and search.
extension PostgresMessagingStore {
    /// Counts what `userID` has not read in a conversation: others' messages after the conversation's read
    /// marker and, for a topic, after the topic's own marker.
    static func unread(_ session: PostgresSession, _ conversationID: String, userID: String, readID: Int64) async throws
        -> UnreadCount
    {
        let rows = try await session.rows(
            """
            SELECT m.topic_id, ts.policy, COUNT(*) FROM messages m
            LEFT JOIN topic_states ts ON ts.topic_id = m.topic_id AND ts.user_id = \(userID)
            WHERE m.conversation_id = \(conversationID) AND m.id > \(readID) AND m.sender_id <> \(userID)
                AND NOT m.hidden AND m.id > COALESCE(ts.last_read_id, 0)
            GROUP BY m.topic_id, ts.policy
            """)
        var count = UnreadCount(total: 0, byTopic: [:])
        for row in rows {
            let (topic, policy, n) = try row.decode((Int64?, String?, Int).self)
            if let topic { count.byTopic[topic] = n }
            if policy != TopicPolicy.muted.rawValue { count.total += n }
        }
        return count
    }

    func unreadCounts(of userID: String, product: Product?) async throws
        -> [(conversationID: String, unread: UnreadCount)]
    {
        try await snapshot { session in
            let memberships = try await session.rows(
                """
                SELECT mb.conversation_id, mb.last_read_id FROM members mb
                JOIN conversations c ON c.id = mb.conversation_id
                WHERE mb.user_id = \(userID) AND c.last_message_id > mb.last_read_id
                    AND (\(product?.rawValue)::text IS NULL OR c.product = \(product?.rawValue))
                ORDER BY c.activity DESC
                """)
            var counts: [(conversationID: String, unread: UnreadCount)] = []
            for row in memberships {
                let (id, readID) = try row.decode((String, Int64).self)
                let count = try await Self.unread(session, id, userID: userID, readID: readID)
                if count.total > 0 || !count.byTopic.isEmpty { counts.append((id, count)) }
            }
            return counts
        }
    }

    /// A member's list line in one statement (one snapshot): the conversation's columns, the caller's mute and
    /// marker, the member count, the other person of a direct conversation, the caller's unread count (others'
    /// messages past both markers, muted topics left out) and the last message.
    static let summarySelect = """
        SELECT \(conversationColumns), mb.muted, mb.last_read_id,
            (SELECT COUNT(*) FROM members x WHERE x.conversation_id = c.id),
            (SELECT o.user_id FROM members o WHERE o.conversation_id = c.id AND o.user_id <> mb.user_id
                AND c.kind = 'direct' LIMIT 1),
            (SELECT COUNT(*) FROM messages m
                LEFT JOIN topic_states ts ON ts.topic_id = m.topic_id AND ts.user_id = mb.user_id
                WHERE m.conversation_id = c.id AND m.id > mb.last_read_id AND m.sender_id <> mb.user_id
                    AND NOT m.hidden AND m.id > COALESCE(ts.last_read_id, 0)
                    AND ts.policy IS DISTINCT FROM 'muted'),
            lm.*
        FROM members mb JOIN conversations c ON c.id = mb.conversation_id
        LEFT JOIN LATERAL (
            SELECT \(messageColumns) FROM messages m LEFT JOIN topics t ON t.id = m.topic_id
            WHERE m.id = c.last_message_id AND m.conversation_id = c.id
                AND (NOT m.hidden OR m.sender_id = mb.user_id)
        ) lm ON true
        """

    /// A line selected by ``summarySelect``.
    static func summary(_ row: PostgresRow) throws -> ConversationSummary {
        let columns = row.makeRandomAccess()
        var lastMessage: MessageRecord?
        if let id = try columns[14].decode(Int64?.self) {
            lastMessage = MessageRecord(
                id: id, conversationId: try columns[15].decode(String.self),
                topicId: try columns[16].decode(Int64?.self), topicName: try columns[17].decode(String?.self),
                senderId: try columns[18].decode(String.self), text: try columns[19].decode(String.self),
                mentions: try columns[20].decode(String.self).split(separator: " ").map(String.init),
                createdAt: try columns[21].decode(Date.self), editedAt: try columns[22].decode(Date?.self),
                hidden: try columns[23].decode(Bool.self))
        }
        return ConversationSummary(
            conversation: try Self.conversation(row), muted: try columns[9].decode(Bool.self),
            lastMessage: lastMessage, otherUserID: try columns[12].decode(String?.self),
            memberCount: try columns[11].decode(Int.self), unread: try columns[13].decode(Int.self))
    }

    /// A page of a member's conversations, most active first: the list every app opens with, so one prepared
    /// statement.
    struct ConversationList: PostgresPreparedStatement {
        static let sql = """
            \(summarySelect)
            WHERE mb.user_id = $1
                AND (c.activity < $2 OR (c.activity = $2 AND c.id < $3))
                AND (c.kind <> 'direct' OR c.last_message_id IS NOT NULL OR c.created_by = mb.user_id)
                AND ($4::text IS NULL OR c.product = $4)
            ORDER BY c.activity DESC, c.id DESC LIMIT $5
            """
        let userID: String
        let cursor: (activity: Int64, id: String)
        let product: String?
        let limit: Int

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 5)
            bindings.append(userID)
            bindings.append(cursor.activity)
            bindings.append(cursor.id)
            bindings.append(product)
            bindings.append(Int64(limit))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> ConversationSummary { try summary(row) }
    }

    func conversations(of userID: String, product: Product?, after cursor: (Int64, String)?, limit: Int)
        async throws -> [ConversationSummary]
    {
        let (activity, id) = cursor ?? (.max, "")
        let list = ConversationList(
            userID: userID, cursor: (activity, id), product: product?.rawValue, limit: limit)
        return try await read { session in try await session.rows(list) }
    }

    func conversations(of userID: String, at conversationID: String) async throws -> ConversationSummary {
        try await read { session in
            guard
                let summary = try await session.first(
                    "\(unescaped: Self.summarySelect) WHERE mb.user_id = \(userID) AND c.id = \(conversationID)",
                    Self.summary)
            else { throw MessagingError.notFound("The conversation") }
            return summary
        }
    }

    /// Keyword search: the words of each message are a `tsvector` ('simple' configuration, GIN-indexed), matched by
    /// the terms' `tsquery`; the newest ``SearchQuery/window`` matches are ranked by `ts_rank` over the
    /// text's length (SQLite ranks by bm25, which also weighs rare words up), best first, newest first on ties.
    /// Snippets are made as FTS5 makes them, for the window only. Without terms (`has:image` alone), the newest
    /// messages with images.
    func search(
        _ terms: [SearchQuery.Term], filter: SearchFilter, for userID: String, conversation conversationID: String?,
        topic topicID: Int64?, offset: Int, limit: Int
    ) async throws -> [SearchHit] {
        try await snapshot { session in
            if let conversationID { _ = try await Self.membership(session, conversationID, userID) }
            // Without terms (`has:image` alone), the newest messages with images, from the images' index.
            let rank = terms.isEmpty ? "0::real" : "ts_rank(m.search, q, 1)"
            let source =
                terms.isEmpty
                ? """
                CROSS JOIN message_images i JOIN messages m ON m.id = i.message_id
                LEFT JOIN topics t ON t.id = m.topic_id WHERE i.message_id IS NOT NULL AND i.position = 0
                """
                : "CROSS JOIN messages m LEFT JOIN topics t ON t.id = m.topic_id WHERE m.search @@ q"
            let rows = try await session.rows(
                """
                SELECT \(unescaped: Self.messageColumns), \(unescaped: rank)
                FROM to_tsquery('simple', \(terms.isEmpty ? "'image'" : SearchQuery.tsquery(terms))) q
                \(unescaped: source)
                    AND m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = \(userID))
                    AND (\(conversationID)::text IS NULL OR m.conversation_id = \(conversationID))
                    AND (\(topicID)::bigint IS NULL OR m.topic_id = \(topicID))
                    AND (NOT m.hidden OR m.sender_id = \(userID))
                    AND (\(filter.senderID)::text IS NULL OR m.sender_id = \(filter.senderID))
                    AND (\(filter.topic)::text IS NULL OR ascii_lower(t.name) = ascii_lower(\(filter.topic)))
                    AND (\(filter.before?.storedPrecision)::timestamptz IS NULL
                        OR m.created_at < \(filter.before?.storedPrecision))
                    AND (\(filter.after?.storedPrecision)::timestamptz IS NULL
                        OR m.created_at >= \(filter.after?.storedPrecision))
                    AND (NOT \(filter.hasImage) OR EXISTS (SELECT 1 FROM message_images i WHERE i.message_id = m.id))
                ORDER BY m.id DESC LIMIT \(SearchQuery.window)
                """)
            let ranked = try rows.map { row in
                let message = try Self.message(row)
                return (
                    hit: SearchHit(message: message, snippet: SearchQuery.snippet(message.text, terms: terms)),
                    score: try row.makeRandomAccess()[10].decode(Float.self)
                )
            }
            .sorted { ($1.score, $1.hit.message.id) < ($0.score, $0.hit.message.id) }
            var hits = Array(ranked.dropFirst(offset).prefix(limit).map(\.hit))
            let images = try await Self.images(session, of: hits.map(\.message.id))
            for index in hits.indices { hits[index].message.images = images[hits[index].message.id] ?? [] }
            return hits
        }
    }
}
