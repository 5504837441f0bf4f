import Foundation
import Logging
import PostgresNIO
import ServiceKit
import ServiceLifecycle

/// The messaging service's storage in PostgreSQL, through PostgresNIO: any number of replicas serve one database.
///
/// What replicas must agree on lives in the database: message ids come from one sequence, every write to a
/// conversation first locks its row (so that its messages are numbered in commit order, an idempotency key or a topic
/// name is checked and stored before the next writer looks, and a group's size and last admin are decided by one
/// writer at a time, as SQLite's single writer does), and the revision the kept latest pages depend on is bumped by
/// triggers (`PostgresMessagingMigrations`), so a page kept by one replica is not served after a post on another.
struct PostgresMessagingStore: MessagingStore {
    let database: PostgresServiceDatabase
    let logger: Logger
    /// Conversations' revisions (asked before every latest page): concurrent reads share one statement.
    let revisions: BatchedLookup<RevisionKey, (Int64, Bool)>

    static func open(_ url: PostgresURL, logger: Logger) async throws -> PostgresMessagingStore {
        let database = try await PostgresServiceDatabase.open(
            url, migrations: PostgresMessagingMigrations.all, logger: logger)
        return PostgresMessagingStore(
            database: database, logger: logger,
            revisions: BatchedLookup(RevisionsOfConversations.self, on: database))
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [database.service] }

    var outbox: (any OutboxStorage)? { PostgresOutbox(database: database) }

    /// Reads whose statements may each see the latest commits (one statement, or checks that stay true).
    func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// Reads whose statements must agree, from one snapshot as SQLite's read transaction gives: a page and the
    /// revision it is kept under (read apart, a post between them would keep the page without it under the
    /// revision that has it), a list and its unread counts.
    func snapshot<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.write(isolation: .repeatableRead, body)
    }

    /// One transaction at READ COMMITTED; writers to a conversation lock its row first (``membership``).
    func write<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// One transaction whose change `notices` reports: recorded in it, and handed on once it committed.
    func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (PostgresSession) async throws -> Change
    ) async throws -> Change {
        try await database.write(reporting: notices, body)
    }

    // MARK: Membership

    /// The conversation and the caller's membership; a 404 for anyone else. With `lock`, the conversation's row is
    /// locked until the transaction ends: every writer to a conversation takes this lock first.
    static func membership(_ session: PostgresSession, _ conversationID: String, _ userID: String, lock: Bool = false)
        async throws -> (ConversationRecord, MemberRecord)
    {
        try requireStorable(conversationID, userID)
        let query: PostgresQuery =
            lock
            ? "SELECT \(unescaped: conversationColumns) FROM conversations c WHERE c.id = \(conversationID) FOR UPDATE"
            : "SELECT \(unescaped: conversationColumns) FROM conversations c WHERE c.id = \(conversationID)"
        guard
            let member = try await session.rows(
                """
                SELECT \(unescaped: memberColumns) FROM members
                WHERE conversation_id = \(conversationID) AND user_id = \(userID)
                """
            ).first.map(Self.member),
            let conversation = try await session.rows(query).first.map(Self.conversation)
        else { throw MessagingError.notFound("The conversation") }
        return (conversation, member)
    }

    /// Refuses, as not found, ids PostgreSQL cannot hold (a NUL character: its text has none, SQLite's may); bound
    /// in a query they would fail it with an error instead of finding nothing.
    static func requireStorable(_ ids: String...) throws {
        guard ids.allSatisfy({ !$0.utf8.contains(0) }) else { throw MessagingError.notFound("The conversation") }
    }

    static func members(_ session: PostgresSession, _ conversationID: String) async throws -> [MemberRecord] {
        try await session.rows(
            """
            SELECT \(unescaped: memberColumns) FROM members WHERE conversation_id = \(conversationID)
            ORDER BY joined_at, user_id
            """
        ).map(Self.member)
    }

    func conversation(_ id: String, asMember userID: String) async throws -> (ConversationRecord, [MemberRecord]) {
        try await snapshot { session in
            let (conversation, _) = try await Self.membership(session, id, userID)
            return (conversation, try await Self.members(session, id))
        }
    }

    func conversationRecord(_ id: String, asMember userID: String) async throws -> ConversationRecord {
        try await read { session in try await Self.membership(session, id, userID).0 }
    }

    func memberIDs(of id: String, asMember userID: String) async throws -> [String] {
        try await read { session in
            _ = try await Self.membership(session, id, userID)
            return try await session.rows("SELECT user_id FROM members WHERE conversation_id = \(id)").map {
                try $0.decode(String.self)
            }
        }
    }

    func memberIDs(of conversationID: String, viewer: String) async throws -> [String] {
        try await read { session in
            _ = try await Self.membership(session, conversationID, viewer)
            return try await Self.members(session, conversationID).map(\.userId)
        }
    }

    /// The highest message id so far: where a new conversation sorts in everyone's list.
    static func currentActivity(_ session: PostgresSession) async throws -> Int64 {
        try await session.value("SELECT COALESCE(MAX(id), 0) FROM messages", as: Int64.self) ?? 0
    }

    // MARK: Rows

    static let conversationColumns =
        "c.id, c.kind, c.name, c.direct_key, c.created_by, c.created_at, c.last_message_id, c.activity, c.product"

    static func conversation(_ row: PostgresRow) throws -> ConversationRecord {
        let (id, kind, name, directKey, createdBy, createdAt, lastMessageID, activity, product) = try row.decode(
            (String, String, String?, String?, String, Date, Int64?, Int64, String).self)
        return ConversationRecord(
            id: id, kind: kind, name: name, directKey: directKey, createdBy: createdBy, createdAt: createdAt,
            lastMessageId: lastMessageID, activity: activity, product: product)
    }

    static let memberColumns = "conversation_id, user_id, role, muted, last_read_id, joined_at"

    static func member(_ row: PostgresRow) throws -> MemberRecord {
        let (conversationID, userID, role, muted, lastReadID, joinedAt) = try row.decode(
            (String, String, String, Bool, Int64, Date).self)
        return MemberRecord(
            conversationId: conversationID, userId: userID, role: role, muted: muted, lastReadId: lastReadID,
            joinedAt: joinedAt)
    }

    static let topicColumns =
        "t.id, t.conversation_id, t.name, t.resolved, t.created_by, t.created_at, t.last_message_id, t.last_activity_at"

    static func topic(_ row: PostgresRow) throws -> TopicRecord {
        let (id, conversationID, name, resolved, createdBy, createdAt, lastMessageID, lastActivityAt) = try row.decode(
            (Int64, String, String, Bool, String, Date, Int64?, Date).self)
        return TopicRecord(
            id: id, conversationId: conversationID, name: name, resolved: resolved, createdBy: createdBy,
            createdAt: createdAt, lastMessageId: lastMessageID, lastActivityAt: lastActivityAt)
    }

    /// The select list ``message(_:)`` decodes, `m` being `messages` and `t` its topic.
    static let messageColumns = """
        m.id, m.conversation_id, m.topic_id, t.name, m.sender_id, m.text, m.mentions, m.created_at, m.edited_at, \
        m.hidden
        """

    static func message(_ row: PostgresRow) throws -> MessageRecord {
        let (id, conversationID, topicID, topicName, senderID, text, mentions, createdAt, editedAt, hidden) =
            try row.decode((Int64, String, Int64?, String?, String, String, String, Date, Date?, Bool).self)
        return MessageRecord(
            id: id, conversationId: conversationID, topicId: topicID, topicName: topicName, senderId: senderID,
            text: text, mentions: mentions.split(separator: " ").map(String.init), createdAt: createdAt,
            editedAt: editedAt, hidden: hidden)
    }
}

extension Date {
    /// The date as SQLite keeps it (milliseconds, GRDB's text form), so that both stores answer the same instants.
    var storedPrecision: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded(.down) / 1000)
    }
}
