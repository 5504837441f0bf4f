import Foundation
import GRDB
import ServiceKit

/// Conversations: opening a direct one, creating and administering groups, and the groups two users share.
extension SQLiteMessagingStore {
    // MARK: Creating

    /// The direct conversation of two users in `product`, if they have one.
    func existingDirect(_ userID: String, with otherID: String, product: Product) async throws -> ConversationRecord? {
        let key = ConversationRecord.directKey(userID, otherID, product: product)
        return try await read { db in
            try ConversationRecord.filter(ConversationRecord.Columns.directKey == key).fetchOne(db)
        }
    }

    /// The direct conversation between two users in `product`: the existing one, or a new one (`created`).
    func openDirect(
        _ userID: String, with otherID: String, product: Product, id: String, now: Date
    ) async throws -> (ConversationRecord, created: Bool) {
        try await write { db in
            let key = ConversationRecord.directKey(userID, otherID, product: product)
            if let existing = try ConversationRecord.filter(ConversationRecord.Columns.directKey == key).fetchOne(db) {
                return (existing, false)
            }
            let conversation = ConversationRecord(
                id: id, kind: ConversationKind.direct.rawValue, name: nil, directKey: key, createdBy: userID,
                createdAt: now, lastMessageId: nil, activity: try Self.currentActivity(db), product: product.rawValue)
            try conversation.insert(db)
            for member in [userID, otherID] {
                try MemberRecord(
                    conversationId: id, userId: member, role: "member", muted: false, lastReadId: 0, joinedAt: now
                ).insert(db)
            }
            return (conversation, true)
        }
    }

    /// A new group: the creator as its admin, the others as members.
    func createGroup(
        id: String, name: String, by creatorID: String, members: [String], product: Product, now: Date,
        notices: ChangeNotices<ConversationRecord>?
    ) async throws -> ConversationRecord {
        try await write(reporting: notices) { db in
            let conversation = ConversationRecord(
                id: id, kind: ConversationKind.group.rawValue, name: name, directKey: nil, createdBy: creatorID,
                createdAt: now, lastMessageId: nil, activity: try Self.currentActivity(db), product: product.rawValue)
            try conversation.insert(db)
            for member in [creatorID] + members {
                try MemberRecord(
                    conversationId: id, userId: member, role: member == creatorID ? "admin" : "member", muted: false,
                    lastReadId: 0, joinedAt: now
                ).insert(db)
            }
            return conversation
        }
    }

    // MARK: Group administration

    func rename(_ conversationID: String, to name: String, by userID: String) async throws {
        try await write { db in
            let (conversation, member) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            try Self.requireAdmin(member, "rename it")
            try db.execute(sql: "UPDATE conversations SET name = ? WHERE id = ?", arguments: [name, conversationID])
        }
    }

    /// Refuses anyone but a member of the group: not found for outsiders, a conflict for a direct conversation.
    func requireGroupMember(_ conversationID: String, _ userID: String) async throws {
        try await read { db in try Self.requireGroup(try Self.membership(db, conversationID, userID).0) }
    }

    /// Adds users to a group (the caller must be in it); returns those who were not members yet.
    func addMembers(
        _ userIDs: [String], to conversationID: String, by userID: String, now: Date,
        notices: ChangeNotices<AddedMembers>?
    ) async throws -> AddedMembers {
        try await write(reporting: notices) { db in
            let (conversation, _) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            let existing = Set(try Self.members(db, conversationID).map(\.userId))
            let added = userIDs.filter { !existing.contains($0) }
            guard existing.count + added.count <= MessagingLimits.maximumGroupSize else {
                throw MessagingError.groupFull
            }
            // Newcomers see the history, but it is not unread for them (as in Zulip).
            let read =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT MAX(id) FROM messages WHERE conversation_id = ?"),
                    arguments: [conversationID]) ?? 0
            for member in added {
                try MemberRecord(
                    conversationId: conversationID, userId: member, role: "member", muted: false, lastReadId: read,
                    joinedAt: now
                ).insert(db)
            }
            return AddedMembers(userIDs: added, groupName: conversation.name)
        }
    }

    /// Takes `memberID` out of a group: themselves (leaving), or an admin removing them; the creator can
    /// only leave. A group whose last admin leaves gets its longest-standing member as admin.
    /// Returns the members who remain.
    func removeMember(_ memberID: String, from conversationID: String, by userID: String) async throws -> [String] {
        try await write { db in
            let (conversation, caller) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            let members = try Self.members(db, conversationID)
            guard members.contains(where: { $0.userId == memberID }) else {
                throw MessagingError.notFound("The member")
            }
            if memberID != userID {
                try Self.requireAdmin(caller, "remove members")
                guard memberID != conversation.createdBy else {
                    throw MessagingError.creatorNotRemovable
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
        try await write { db in
            let (conversation, caller) = try Self.membership(db, conversationID, userID)
            try Self.requireGroup(conversation)
            try Self.requireAdmin(caller, "change roles")
            guard try Self.members(db, conversationID).contains(where: { $0.userId == memberID }) else {
                throw MessagingError.notFound("The member")
            }
            guard !(memberID == conversation.createdBy && role != "admin") else {
                throw MessagingError.creatorStaysAdmin
            }
            try db.execute(
                sql: "UPDATE members SET role = ? WHERE conversation_id = ? AND user_id = ?",
                arguments: [role, conversationID, memberID])
        }
    }

    func setMuted(_ muted: Bool, conversation conversationID: String, for userID: String) async throws {
        try await write { db in
            _ = try Self.membership(db, conversationID, userID)
            try db.execute(
                sql: "UPDATE members SET muted = ? WHERE conversation_id = ? AND user_id = ?",
                arguments: [muted, conversationID, userID])
        }
    }

    /// The groups `userID` and `otherID` are both in, most recent activity first, after the cursor's
    /// `(activity, id)`.
    func commonGroups(
        of userID: String, and otherID: String, after cursor: (Int64, String)?, limit: Int
    ) async throws -> [FriendGroup] {
        let (activity, id) = cursor ?? (.max, "")
        return try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT c.id, c.name, c.activity, c.created_at,
                               (SELECT COUNT(*) FROM members m WHERE m.conversation_id = c.id) AS member_count,
                               (SELECT created_at FROM messages WHERE id = c.last_message_id) AS last_message_at
                        FROM members a
                        JOIN members b ON b.conversation_id = a.conversation_id AND b.user_id = ?
                        JOIN conversations c ON c.id = a.conversation_id
                        WHERE a.user_id = ? AND c.kind = 'group'
                          AND (c.activity < ? OR (c.activity = ? AND c.id < ?))
                        ORDER BY c.activity DESC, c.id DESC LIMIT ?
                        """), arguments: [otherID, userID, activity, activity, id, limit]
            ).map { row in
                let createdAt: Date = row["created_at"]
                let lastMessageAt: Date? = row["last_message_at"]
                return FriendGroup(
                    id: row["id"], name: row["name"], memberCount: row["member_count"],
                    lastActivityAt: lastMessageAt ?? createdAt, activity: row["activity"])
            }
        }
    }
}
