import Foundation
import GRDB

extension SQLiteMessagingStore {
    /// Inserts a topic; its creator follows it (Zulip's default, and the requirement's use case 13).
    static func createTopic(_ db: Database, name: String, in conversationID: String, by userID: String, now: Date)
        throws -> TopicRecord
    {
        var topic = TopicRecord(
            id: nil, conversationId: conversationID, name: name, resolved: false, createdBy: userID, createdAt: now,
            lastMessageId: nil, lastActivityAt: now)
        try topic.insert(db)
        topic.id = db.lastInsertedRowID
        try db.execute(
            sql: "INSERT INTO topic_states (topic_id, user_id, policy) VALUES (?, ?, 'followed')",
            arguments: [topic.id, userID])
        return topic
    }

    func createTopic(_ name: String, in conversationID: String, by userID: String, now: Date) async throws
        -> TopicSummary
    {
        try await write { db in
            let (conversation, _) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            try Self.requireUniqueTopicName(db, name, in: conversationID, except: nil)
            let topic = try Self.createTopic(db, name: name, in: conversationID, by: userID, now: now)
            return TopicSummary(topic: topic, policy: .followed, unread: 0)
        }
    }

    private static func requireUniqueTopicName(
        _ db: Database, _ name: String, in conversationID: String, except: Int64?
    )
        throws
    {
        let clash = try TopicRecord.filter(
            TopicRecord.Columns.conversationID == conversationID && TopicRecord.Columns.name == name
        )
        .fetchOne(db)
        if let clash, clash.id != except {
            throw MessagingError.topicExists(clash.name)
        }
    }

    /// A group's topics, the caller's pinned ones first, then latest message first, after the cursor.
    func topics(
        in conversationID: String, asMember userID: String, after cursor: TopicOrder?, limit: Int
    ) async throws -> [TopicSummary] {
        let after = cursor ?? .start
        return try await read { db in
            let (conversation, member) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            let unread = try Self.unread(db, conversationID, userID: userID, readID: member.lastReadId).byTopic
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM (
                            SELECT t.*, ts.policy AS my_policy, COALESCE(ts.pinned, 0) AS my_pinned,
                                COALESCE(t.last_message_id, 0) AS last_id
                            FROM topics t LEFT JOIN topic_states ts ON ts.topic_id = t.id AND ts.user_id = ?
                            WHERE t.conversation_id = ?
                        )
                        WHERE (my_pinned, last_id, id) < (?, ?, ?)
                        ORDER BY my_pinned DESC, last_id DESC, id DESC LIMIT ?
                        """),
                arguments: [userID, conversationID, after.pinned, after.lastMessageID, after.id, limit]
            ).map { row in
                let topic = try TopicRecord(row: row)
                return TopicSummary(
                    topic: topic, policy: (row["my_policy"] as String?).flatMap(TopicPolicy.init) ?? .inherit,
                    unread: unread[topic.id ?? 0] ?? 0, pinned: row["my_pinned"])
            }
        }
    }

    /// Renames and/or resolves a topic; any member may (Zulip's default). Its id, messages and everyone's
    /// read state stay as they are.
    func updateTopic(
        _ topicID: Int64, in conversationID: String, by userID: String, name: String?, resolved: Bool?
    ) async throws {
        try await write { db in
            let (conversation, _) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            guard var topic = try TopicRecord.fetchOne(db, key: topicID), topic.conversationId == conversationID else {
                throw MessagingError.notFound("The topic")
            }
            if let name {
                try Self.requireUniqueTopicName(db, name, in: conversationID, except: topicID)
                topic.name = name
            }
            if let resolved { topic.resolved = resolved }
            try topic.update(db)
        }
    }

    func setTopicPinned(_ pinned: Bool, topic topicID: Int64, in conversationID: String, for userID: String)
        async throws
    {
        try await write { db in
            try Self.requireTopic(db, topicID, in: conversationID, member: userID)
            if pinned {
                let others =
                    try Int.fetchOne(
                        db,
                        sql: """
                            SELECT COUNT(*) FROM topic_states ts JOIN topics t ON t.id = ts.topic_id
                            WHERE t.conversation_id = ? AND ts.user_id = ? AND ts.pinned = 1 AND ts.topic_id <> ?
                            """, arguments: [conversationID, userID, topicID]) ?? 0
                guard others < MessagingLimits.maximumPinnedTopics else { throw MessagingError.tooManyPinned }
            }
            try db.execute(
                sql: """
                    INSERT INTO topic_states (topic_id, user_id, pinned) VALUES (?, ?, ?)
                    ON CONFLICT (topic_id, user_id) DO UPDATE SET pinned = excluded.pinned
                    """, arguments: [topicID, userID, pinned])
        }
    }

    func setTopicPolicy(_ policy: TopicPolicy, topic topicID: Int64, in conversationID: String, for userID: String)
        async throws
    {
        try await write { db in
            try Self.requireTopic(db, topicID, in: conversationID, member: userID)
            try db.execute(
                sql: """
                    INSERT INTO topic_states (topic_id, user_id, policy) VALUES (?, ?, ?)
                    ON CONFLICT (topic_id, user_id) DO UPDATE SET policy = excluded.policy
                    """, arguments: [topicID, userID, policy.rawValue])
        }
    }

    /// Refuses anyone but a member of the group, and a topic of another conversation (404s).
    private static func requireTopic(_ db: Database, _ topicID: Int64, in conversationID: String, member userID: String)
        throws
    {
        let (conversation, _) = try membership(db, conversationID, userID)
        try requireGroup(conversation)
        guard let topic = try TopicRecord.fetchOne(db, key: topicID), topic.conversationId == conversationID else {
            throw MessagingError.notFound("The topic")
        }
    }
}
