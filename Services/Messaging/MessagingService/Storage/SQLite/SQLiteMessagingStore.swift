import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The messaging service's storage in SQLite, through GRDB (the default): one file, one writer at a time.
struct SQLiteMessagingStore: MessagingStore {
    private let database: ServiceDatabase
    /// Notices and events waiting for the notifications service, in this database.
    let outbox: (any OutboxStorage)?

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: MessagingMigrations.migrator)
        self.outbox = SQLiteOutbox(writer: database.writer)
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [] }

    /// One read transaction; the `+Concern` files' methods go through here and ``write(_:)``.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// One write transaction whose change `notices` reports: recorded in it, and handed on once it committed.
    func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (Database) throws -> Change
    ) async throws -> Change {
        try await database.write(reporting: notices, body)
    }

    // MARK: Membership

    /// The conversation and the caller's membership; a 404 for anyone else, so that a conversation's
    /// existence is not revealed to outsiders.
    static func membership(_ db: Database, _ conversationID: String, _ userID: String) throws -> (
        ConversationRecord, MemberRecord
    ) {
        guard
            let member = try MemberRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM members WHERE conversation_id = ? AND user_id = ?"),
                arguments: [conversationID, userID]),
            let conversation = try ConversationRecord.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM conversations WHERE id = ?"), arguments: [conversationID])
        else { throw MessagingError.notFound("The conversation") }
        return (conversation, member)
    }

    static func members(_ db: Database, _ conversationID: String) throws -> [MemberRecord] {
        try MemberRecord.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM members WHERE conversation_id = ? ORDER BY joined_at, user_id"),
            arguments: [conversationID])
    }

    static func requireGroup(_ conversation: ConversationRecord) throws {
        try GroupRules.requireGroup(conversation.conversationKind)
    }

    static func requireAdmin(_ member: MemberRecord, _ action: String) throws {
        try GroupRules.requireAdmin(member.isAdmin, to: action)
    }

    func conversation(_ id: String, asMember userID: String) async throws -> (ConversationRecord, [MemberRecord]) {
        try await read { db in
            let (conversation, _) = try Self.membership(db, id, userID)
            return (conversation, try Self.members(db, id))
        }
    }

    func conversationRecord(_ id: String, asMember userID: String) async throws -> ConversationRecord {
        try await read { db in try Self.membership(db, id, userID).0 }
    }

    func memberIDs(of id: String, asMember userID: String) async throws -> [String] {
        try await read { db in
            _ = try Self.membership(db, id, userID)
            return try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM members WHERE conversation_id = ?"), arguments: [id])
        }
    }

    /// The highest message id so far: where a new conversation sorts in everyone's list.
    static func currentActivity(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(id) FROM messages")) ?? 0
    }
}
