import Foundation
import GRDB
import PlatformKit

extension SQLiteMessagingStore {
    /// Counts what `userID` has not read in a conversation: others' messages after the conversation's read
    /// marker and, for a topic, after the topic's own marker.
    static func unread(_ db: Database, _ conversationID: String, userID: String, readID: Int64) throws -> UnreadCount {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT m.topic_id, ts.policy, COUNT(*) FROM messages m
                    LEFT JOIN topic_states ts ON ts.topic_id = m.topic_id AND ts.user_id = ?
                    WHERE m.conversation_id = ? AND m.id > ? AND m.sender_id <> ? AND m.hidden = 0
                        AND m.id > COALESCE(ts.last_read_id, 0)
                    GROUP BY m.topic_id
                    """), arguments: [userID, conversationID, readID, userID])
        var count = UnreadCount(total: 0, byTopic: [:])
        for row in rows {
            let n: Int = row[2]
            if let topic: Int64 = row[0] { count.byTopic[topic] = n }
            if (row[1] as String?) != TopicPolicy.muted.rawValue { count.total += n }
        }
        return count
    }

    /// The caller's unread counts in every conversation that has some, most recently active first.
    /// With `product`, only that app's conversations count.
    func unreadCounts(of userID: String, product: Product?) async throws
        -> [(conversationID: String, unread: UnreadCount)]
    {
        try await read { db in
            let memberships = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT mb.conversation_id, mb.last_read_id FROM members mb
                        JOIN conversations c ON c.id = mb.conversation_id
                        WHERE mb.user_id = ? AND c.last_message_id > mb.last_read_id
                            AND (? IS NULL OR c.product = ?)
                        ORDER BY c.activity DESC
                        """), arguments: [userID, product?.rawValue, product?.rawValue])
            return try memberships.compactMap { row in
                let id: String = row[0]
                let count = try Self.unread(db, id, userID: userID, readID: row[1])
                return count.total > 0 || !count.byTopic.isEmpty ? (id, count) : nil
            }
        }
    }

    private static let summarySelect = """
        SELECT c.*, mb.muted AS my_muted, mb.last_read_id AS my_last_read_id,
            (SELECT COUNT(*) FROM members x WHERE x.conversation_id = c.id) AS member_count,
            (SELECT o.user_id FROM members o WHERE o.conversation_id = c.id AND o.user_id <> mb.user_id
                AND c.kind = 'direct') AS other_user_id
        FROM members mb JOIN conversations c ON c.id = mb.conversation_id
        """

    /// The caller's conversations, most recent activity first, after the cursor's `(activity, id)`. A direct
    /// conversation nobody has written in yet is listed only for the one who opened it: opening a chat must not
    /// put an empty conversation in the other person's list.
    /// With `product`, only that app's conversations.
    func conversations(of userID: String, product: Product?, after cursor: (Int64, String)?, limit: Int)
        async throws -> [ConversationSummary]
    {
        try await read { db in
            let (activity, id) = cursor ?? (.max, "")
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: Self.summarySelect + """
                         WHERE mb.user_id = ? AND (c.activity < ? OR (c.activity = ? AND c.id < ?))
                            AND (c.kind <> 'direct' OR c.last_message_id IS NOT NULL OR c.created_by = mb.user_id)
                            AND (? IS NULL OR c.product = ?)
                        ORDER BY c.activity DESC, c.id DESC LIMIT ?
                        """), arguments: [userID, activity, activity, id, product?.rawValue, product?.rawValue, limit])
            return try rows.map { try Self.summary(db, $0, for: userID) }
        }
    }

    /// One conversation's line of the caller's list; a 404 if they are not in it.
    func conversations(of userID: String, at conversationID: String) async throws -> ConversationSummary {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: Self.summarySelect + " WHERE mb.user_id = ? AND c.id = ?"),
                    arguments: [userID, conversationID])
            else { throw MessagingError.notFound("The conversation") }
            return try Self.summary(db, row, for: userID)
        }
    }

    private static func summary(_ db: Database, _ row: Row, for userID: String) throws -> ConversationSummary {
        let conversation = try ConversationRecord(row: row)
        // A hidden last message is previewed to its sender only.
        let lastMessage = try conversation.lastMessageId.map { try message(db, $0, in: conversation.id) }
            .flatMap { !$0.hidden || $0.senderId == userID ? $0 : nil }
        return ConversationSummary(
            conversation: conversation, muted: row["my_muted"], lastMessage: lastMessage,
            otherUserID: row["other_user_id"], memberCount: row["member_count"],
            unread: try unread(db, conversation.id, userID: userID, readID: row["my_last_read_id"]).total)
    }

    /// Keyword search over the conversations the caller is a member of, optionally one conversation or one
    /// topic: the newest ``SearchQuery/window`` matches ranked by bm25, best first (newest first on ties). Without
    /// terms (`has:image` alone), the newest messages with images.
    func search(
        _ terms: [SearchQuery.Term], filter: SearchFilter, for userID: String, conversation conversationID: String?,
        topic topicID: Int64?, offset: Int, limit: Int
    ) async throws -> [SearchHit] {
        try await read { db in
            if let conversationID { _ = try Self.membership(db, conversationID, userID) }
            // CROSS JOIN keeps the full-text index (or the images' index) outermost, newest match first, so the
            // window ends the scan. Private-use characters mark the matches, so the text can be escaped before they
            // become <mark> (in the controller); snippets are made here, for the window only: a query per result
            // would match the index again.
            let source =
                terms.isEmpty
                ? """
                SELECT \(MessageRecord.columns), NULL, 0.0
                FROM message_images i
                CROSS JOIN messages m ON m.id = i.message_id
                LEFT JOIN topics t ON t.id = m.topic_id
                WHERE i.message_id IS NOT NULL AND i.position = 0 AND ? IS NULL
                """
                : """
                SELECT \(MessageRecord.columns),
                    snippet(message_search, 0, char(57344), char(57345), '…', 24), bm25(message_search)
                FROM message_search
                CROSS JOIN messages m ON m.id = message_search.rowid
                LEFT JOIN topics t ON t.id = m.topic_id
                WHERE message_search MATCH ?
                """
            let order = terms.isEmpty ? "i.message_id" : "message_search.rowid"
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: source + """

                            AND m.conversation_id IN (SELECT conversation_id FROM members WHERE user_id = ?)
                            AND (? IS NULL OR m.conversation_id = ?)
                            AND (? IS NULL OR m.topic_id = ?)
                            AND (m.hidden = 0 OR m.sender_id = ?)
                            AND (? IS NULL OR m.sender_id = ?)
                            AND (? IS NULL OR t.name = ?)
                            AND (? IS NULL OR m.created_at < ?)
                            AND (? IS NULL OR m.created_at >= ?)
                            AND (? = 0 OR EXISTS (SELECT 1 FROM message_images i WHERE i.message_id = m.id))
                        ORDER BY \(order) DESC LIMIT ?
                        """),
                arguments: [
                    terms.isEmpty ? nil : SearchQuery.fts(terms), userID, conversationID, conversationID, topicID,
                    topicID, userID, filter.senderID, filter.senderID, filter.topic, filter.topic, filter.before,
                    filter.before, filter.after, filter.after, filter.hasImage, SearchQuery.window,
                ])
            let ranked = try rows.map { row in
                let message = try MessageRecord(row: row)
                return (
                    hit: SearchHit(
                        message: message, snippet: row[10] as String? ?? SearchQuery.snippet(message.text, terms: terms)
                    ),
                    score: row[11] as Double
                )
            }
            .sorted { ($0.score, $1.hit.message.id) < ($1.score, $0.hit.message.id) }
            var hits = Array(ranked.dropFirst(offset).prefix(limit).map(\.hit))
            let images = try Self.images(db, of: hits.map(\.message.id))
            for index in hits.indices { hits[index].message.images = images[hits[index].message.id] ?? [] }
            return hits
        }
    }

    /// The member ids of a conversation `viewer` is in; 404 for anyone else, as for the public routes.
    func memberIDs(of conversationID: String, viewer: String) async throws -> [String] {
        try await read { db in
            _ = try Self.membership(db, conversationID, viewer)
            return try Self.members(db, conversationID).map(\.userId)
        }
    }
}
