import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The messaging service's storage: the only place that knows SQL. Each method is one transaction, and
/// every method that touches a conversation checks, in that transaction, that the caller is a member.
struct MessagingDatabase: Sendable {
    let writer: any DatabaseWriter

    init(_ location: DatabaseLocation) throws {
        self.writer = try ServiceDatabase.open(location, migrator: MessagingMigrations.migrator)
    }

    // MARK: Membership

    /// The conversation and the caller's membership; a 404 for anyone else, so that a conversation's
    /// existence is not revealed to outsiders.
    static func membership(_ db: Database, _ conversationID: String, _ userID: String) throws -> (
        ConversationRow, MemberRow
    ) {
        guard
            let member = try MemberRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM members WHERE conversation_id = ? AND user_id = ?"),
                arguments: [conversationID, userID]),
            let conversation = try ConversationRow.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM conversations WHERE id = ?"), arguments: [conversationID])
        else { throw Problem.notFound("The conversation") }
        return (conversation, member)
    }

    static func members(_ db: Database, _ conversationID: String) throws -> [MemberRow] {
        try MemberRow.fetchAll(
            db.cachedStatement(sql: "SELECT * FROM members WHERE conversation_id = ? ORDER BY joined_at, user_id"),
            arguments: [conversationID])
    }

    static func requireGroup(_ conversation: ConversationRow) throws {
        guard conversation.conversationKind == .group else {
            throw Problem.conflict("not_a_group", "Direct conversations have no name, topics or member changes.")
        }
    }

    static func requireAdmin(_ member: MemberRow, _ what: String) throws {
        guard member.isAdmin else { throw Problem.forbidden("not_admin", "Only the group's admins can \(what).") }
    }

    /// The conversation and all its members, for a member.
    func conversation(_ id: String, asMember userID: String) async throws -> (ConversationRow, [MemberRow]) {
        try await writer.read { db in
            let (conversation, _) = try Self.membership(db, id, userID)
            return (conversation, try Self.members(db, id))
        }
    }

    /// The conversation, for a member; cheaper than ``conversation(_:asMember:)`` on the send path.
    func conversationRow(_ id: String, asMember userID: String) async throws -> ConversationRow {
        try await writer.read { db in try Self.membership(db, id, userID).0 }
    }

    /// The ids of a conversation's members, for a member.
    func memberIDs(of id: String, asMember userID: String) async throws -> [String] {
        try await writer.read { db in
            _ = try Self.membership(db, id, userID)
            return try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM members WHERE conversation_id = ?"), arguments: [id])
        }
    }

    /// The highest message id so far: where a new conversation sorts in everyone's list.
    private static func currentActivity(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM messages") ?? 0
    }

    // MARK: Creating

    /// The direct conversation between two users: the existing one, or a new one (`created`).
    func openDirect(_ userID: String, with otherID: String, id: String, now: Date) async throws -> (
        ConversationRow, created: Bool
    ) {
        try await writer.write { db in
            let key = ConversationRow.directKey(userID, otherID)
            if let existing = try ConversationRow.filter(Column("direct_key") == key).fetchOne(db) {
                return (existing, false)
            }
            let conversation = ConversationRow(
                id: id, kind: ConversationKind.direct.rawValue, name: nil, directKey: key, createdBy: userID,
                createdAt: now, lastMessageId: nil, activity: try Self.currentActivity(db))
            try conversation.insert(db)
            for member in [userID, otherID] {
                try MemberRow(
                    conversationId: id, userId: member, role: "member", muted: false, lastReadId: 0, joinedAt: now
                ).insert(db)
            }
            return (conversation, true)
        }
    }

    /// A new group: the creator as its admin, the others as members.
    func createGroup(id: String, name: String, by creatorID: String, members: [String], now: Date) async throws
        -> ConversationRow
    {
        try await writer.write { db in
            let conversation = ConversationRow(
                id: id, kind: ConversationKind.group.rawValue, name: name, directKey: nil, createdBy: creatorID,
                createdAt: now, lastMessageId: nil, activity: try Self.currentActivity(db))
            try conversation.insert(db)
            for member in [creatorID] + members {
                try MemberRow(
                    conversationId: id, userId: member, role: member == creatorID ? "admin" : "member", muted: false,
                    lastReadId: 0, joinedAt: now
                ).insert(db)
            }
            return conversation
        }
    }

    // MARK: Group administration

    func rename(_ conversationID: String, to name: String, by userID: String) async throws {
        try await writer.write { db in
            let (conversation, member) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            try Self.requireAdmin(member, "rename it")
            try db.execute(sql: "UPDATE conversations SET name = ? WHERE id = ?", arguments: [name, conversationID])
        }
    }

    /// Adds users to a group (the caller must be in it); returns those who were not members yet.
    func addMembers(_ userIDs: [String], to conversationID: String, by userID: String, now: Date) async throws
        -> [String]
    {
        try await writer.write { db in
            let (conversation, _) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            let existing = Set(try Self.members(db, conversationID).map(\.userId))
            let added = userIDs.filter { !existing.contains($0) }
            guard existing.count + added.count <= MessagingLimits.maximumGroupSize else {
                throw Problem.conflict(
                    "group_full", "A group has at most \(MessagingLimits.maximumGroupSize) members.")
            }
            // Newcomers see the history, but it is not unread for them (as in Zulip).
            let read =
                try Int64.fetchOne(
                    db, sql: "SELECT MAX(id) FROM messages WHERE conversation_id = ?", arguments: [conversationID]) ?? 0
            for member in added {
                try MemberRow(
                    conversationId: conversationID, userId: member, role: "member", muted: false, lastReadId: read,
                    joinedAt: now
                ).insert(db)
            }
            return added
        }
    }

    /// Takes `memberID` out of a group: themselves (leaving), or an admin removing them; the creator can
    /// only leave. A group whose last admin leaves gets its longest-standing member as admin.
    /// Returns the members who remain.
    func removeMember(_ memberID: String, from conversationID: String, by userID: String) async throws -> [String] {
        try await writer.write { db in
            let (conversation, caller) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            let members = try Self.members(db, conversationID)
            guard members.contains(where: { $0.userId == memberID }) else { throw Problem.notFound("The member") }
            if memberID != userID {
                try Self.requireAdmin(caller, "remove members")
                guard memberID != conversation.createdBy else {
                    throw Problem.forbidden("not_admin", "The group's creator cannot be removed.")
                }
            }
            try db.execute(
                sql: "DELETE FROM members WHERE conversation_id = ? AND user_id = ?",
                arguments: [conversationID, memberID])
            let remaining = members.filter { $0.userId != memberID }
            if !remaining.isEmpty, !remaining.contains(where: \.isAdmin) {
                try db.execute(
                    sql: "UPDATE members SET role = 'admin' WHERE conversation_id = ? AND user_id = ?",
                    arguments: [conversationID, remaining[0].userId])
            }
            return remaining.map(\.userId)
        }
    }

    /// Makes a member an admin or a plain member again (admins only; the creator stays an admin).
    func setRole(_ role: String, of memberID: String, in conversationID: String, by userID: String) async throws {
        try await writer.write { db in
            let (conversation, caller) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            try Self.requireAdmin(caller, "change roles")
            guard try Self.members(db, conversationID).contains(where: { $0.userId == memberID }) else {
                throw Problem.notFound("The member")
            }
            guard !(memberID == conversation.createdBy && role != "admin") else {
                throw Problem.forbidden("not_admin", "The group's creator stays an admin.")
            }
            try db.execute(
                sql: "UPDATE members SET role = ? WHERE conversation_id = ? AND user_id = ?",
                arguments: [role, conversationID, memberID])
        }
    }

    func setMuted(_ muted: Bool, conversation conversationID: String, for userID: String) async throws {
        try await writer.write { db in
            _ = try Self.membership(db, conversationID, userID)
            try db.execute(
                sql: "UPDATE members SET muted = ? WHERE conversation_id = ? AND user_id = ?",
                arguments: [muted, conversationID, userID])
        }
    }

    /// The groups both users are members of, most recently active first.
    func commonGroups(of userID: String, and otherID: String) async throws -> [ConversationRow] {
        try await writer.read { db in
            try ConversationRow.fetchAll(
                db,
                sql: """
                    SELECT c.* FROM members a
                    JOIN members b ON b.conversation_id = a.conversation_id AND b.user_id = ?
                    JOIN conversations c ON c.id = a.conversation_id
                    WHERE a.user_id = ? AND c.kind = 'group'
                    ORDER BY c.activity DESC, c.id DESC
                    """, arguments: [otherID, userID])
        }
    }
}

/// Bounds that keep every request cheap.
enum MessagingLimits {
    static let maximumGroupSize = 1_000
    static let maximumInvitesPerRequest = 100
    static let maximumNameLength = 80
}
