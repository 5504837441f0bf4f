import Foundation
import PostgresNIO
import ServiceKit

/// A group's topics: creating, listing, renaming and resolving them, and each member's policy.
extension PostgresMessagingStore {
    /// The topic `topicID` if it is one of the conversation's.
    static func topic(_ session: PostgresSession, _ topicID: Int64, in conversationID: String) async throws -> TopicRecord? {
        try await session.rows(
            """
            SELECT \(unescaped: topicColumns) FROM topics t
            WHERE t.id = \(topicID) AND t.conversation_id = \(conversationID)
            """
        ).first.map(Self.topic)
    }

    /// The conversation's topic called `name`, ASCII case-insensitively (SQLite's `NOCASE`).
    static func topic(_ session: PostgresSession, named name: String, in conversationID: String) async throws -> TopicRecord? {
        try await session.rows(
            """
            SELECT \(unescaped: topicColumns) FROM topics t
            WHERE t.conversation_id = \(conversationID) AND ascii_lower(t.name) = ascii_lower(\(name))
            """
        ).first.map(Self.topic)
    }

    /// Inserts a topic; its creator follows it (Zulip's default, and the requirement's use case 13).
    static func createTopic(_ session: PostgresSession, name: String, in conversationID: String, by userID: String, now: Date)
        async throws -> TopicRecord
    {
        var topic = TopicRecord(
            id: nil, conversationId: conversationID, name: name, resolved: false, createdBy: userID, createdAt: now,
            lastMessageId: nil, lastActivityAt: now)
        topic.id = try await session.value(
            """
            INSERT INTO topics (conversation_id, name, resolved, created_by, created_at, last_activity_at)
            VALUES (\(conversationID), \(name), false, \(userID), \(now.storedPrecision), \(now.storedPrecision))
            RETURNING id
            """, as: Int64.self)
        try await session.execute(
            """
            INSERT INTO topic_states (topic_id, conversation_id, user_id, policy)
            VALUES (\(topic.id), \(conversationID), \(userID), 'followed')
            """)
        return topic
    }

    func createTopic(_ name: String, in conversationID: String, by userID: String, now: Date) async throws
        -> TopicSummary
    {
        try await write { session in
            let (conversation, _) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            try await Self.requireUniqueTopicName(session, name, in: conversationID, except: nil)
            let topic = try await Self.createTopic(session, name: name, in: conversationID, by: userID, now: now)
            return TopicSummary(topic: topic, policy: .followed, unread: 0)
        }
    }

    /// Refuses a name another topic of the group has (checked under the conversation's lock, so before the unique
    /// index would refuse it).
    private static func requireUniqueTopicName(
        _ session: PostgresSession, _ name: String, in conversationID: String, except: Int64?
    ) async throws {
        if let clash = try await topic(session, named: name, in: conversationID), clash.id != except {
            throw MessagingError.topicExists(clash.name)
        }
    }

    func topics(in conversationID: String, asMember userID: String, after cursor: TopicOrder?, limit: Int)
        async throws -> [TopicSummary]
    {
        let after = cursor ?? .start
        return try await snapshot { session in
            let (conversation, member) = try await Self.membership(session, conversationID, userID)
            try GroupRules.requireGroup(conversation.conversationKind)
            let unread = try await Self.unread(session, conversationID, userID: userID, readID: member.lastReadId)
                .byTopic
            return try await session.rows(
                """
                SELECT \(unescaped: Self.topicColumns), ts.policy, COALESCE(ts.pinned, false) FROM topics t
                LEFT JOIN topic_states ts ON ts.topic_id = t.id AND ts.user_id = \(userID)
                WHERE t.conversation_id = \(conversationID)
                    AND (COALESCE(ts.pinned, false), COALESCE(t.last_message_id, 0), t.id)
                        < (\(after.pinned), \(after.lastMessageID), \(after.id))
                ORDER BY COALESCE(ts.pinned, false) DESC, COALESCE(t.last_message_id, 0) DESC, t.id DESC
                LIMIT \(limit)
                """
            ).map { row in
                let topic = try Self.topic(row)
                let columns = row.makeRandomAccess()
                return TopicSummary(
                    topic: topic, policy: try columns[8].decode(String?.self).flatMap(TopicPolicy.init) ?? .inherit,
                    unread: unread[topic.id ?? 0] ?? 0, pinned: try columns[9].decode(Bool.self))
            }
        }
    }

    func updateTopic(_ topicID: Int64, in conversationID: String, by userID: String, name: String?, resolved: Bool?)
        async throws
    {
        try await write { session in
            let (conversation, _) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            guard var topic = try await Self.topic(session, topicID, in: conversationID) else {
                throw MessagingError.notFound("The topic")
            }
            if let name {
                try await Self.requireUniqueTopicName(session, name, in: conversationID, except: topicID)
                topic.name = name
            }
            if let resolved { topic.resolved = resolved }
            // Both columns, as SQLite's record update writes them: the revision trigger fires as it does there.
            try await session.execute(
                "UPDATE topics SET name = \(topic.name), resolved = \(topic.resolved) WHERE id = \(topicID)")
        }
    }

    func setTopicPinned(_ pinned: Bool, topic topicID: Int64, in conversationID: String, for userID: String)
        async throws
    {
        try await write { session in
            // Under the conversation's lock, so two pins at once cannot pass the limit together.
            let (conversation, _) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            guard try await Self.topic(session, topicID, in: conversationID) != nil else {
                throw MessagingError.notFound("The topic")
            }
            if pinned {
                let others =
                    try await session.value(
                        """
                        SELECT COUNT(*) FROM topic_states WHERE conversation_id = \(conversationID)
                            AND user_id = \(userID) AND pinned AND topic_id <> \(topicID)
                        """, as: Int64.self) ?? 0
                guard others < MessagingLimits.maximumPinnedTopics else { throw MessagingError.tooManyPinned }
            }
            try await session.execute(
                """
                INSERT INTO topic_states (topic_id, conversation_id, user_id, pinned)
                VALUES (\(topicID), \(conversationID), \(userID), \(pinned))
                ON CONFLICT (topic_id, user_id) DO UPDATE SET pinned = excluded.pinned
                """)
        }
    }

    func setTopicPolicy(_ policy: TopicPolicy, topic topicID: Int64, in conversationID: String, for userID: String)
        async throws
    {
        try await write { session in
            let (conversation, _) = try await Self.membership(session, conversationID, userID)
            try GroupRules.requireGroup(conversation.conversationKind)
            guard try await Self.topic(session, topicID, in: conversationID) != nil else {
                throw MessagingError.notFound("The topic")
            }
            try await session.execute(
                """
                INSERT INTO topic_states (topic_id, conversation_id, user_id, policy)
                VALUES (\(topicID), \(conversationID), \(userID), \(policy.rawValue))
                ON CONFLICT (topic_id, user_id) DO UPDATE SET policy = excluded.policy
                """)
        }
    }
}
