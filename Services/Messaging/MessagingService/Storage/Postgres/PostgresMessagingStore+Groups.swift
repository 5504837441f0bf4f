import Foundation
import PostgresNIO
import ServiceKit

/// Conversations: opening a direct one, creating and administering groups, and the groups two users share.
extension PostgresMessagingStore {
    // MARK: Creating

    func existingDirect(_ userID: String, with otherID: String, product: Product) async throws -> ConversationRecord? {
        let key = ConversationRecord.directKey(userID, otherID, product: product)
        return try await read { session in
            try await session.rows(
                "SELECT \(unescaped: Self.conversationColumns) FROM conversations c WHERE c.direct_key = \(key)"
            ).first.map(Self.conversation)
        }
    }

    func openDirect(_ userID: String, with otherID: String, product: Product, id: String, now: Date) async throws
        -> (ConversationRecord, created: Bool)
    {
        let key = ConversationRecord.directKey(userID, otherID, product: product)
        return try await write { session in
            let conversation = ConversationRecord(
                id: id, kind: ConversationKind.direct.rawValue, name: nil, directKey: key, createdBy: userID,
                createdAt: now, lastMessageId: nil, activity: try await Self.currentActivity(session),
                product: product.rawValue)
            // Two replicas opening the same pair at once: the unique key lets one insert; the other, waiting on it,
            // inserts nothing and reads the winner's conversation.
            let inserted = try await session.rows(
                """
                INSERT INTO conversations (id, kind, name, direct_key, created_by, created_at, activity, product)
                VALUES (\(id), \(conversation.kind), NULL, \(key), \(userID), \(now.storedPrecision),
                    \(conversation.activity), \(product.rawValue))
                ON CONFLICT (direct_key) DO NOTHING RETURNING id
                """)
            guard !inserted.isEmpty else {
                guard
                    let existing = try await session.rows(
                        "SELECT \(unescaped: Self.conversationColumns) FROM conversations c WHERE c.direct_key = \(key)"
                    ).first.map(Self.conversation)
                else { throw MessagingError.notFound("The conversation") }
                return (existing, false)
            }
            for member in [userID, otherID] {
                try await Self.insertMember(session, id, member, role: "member", lastReadID: 0, now: now)
            }
            return (conversation, true)
        }
    }

    private static func insertMember(
        _ session: PostgresSession, _ conversationID: String, _ userID: String, role: String, lastReadID: Int64,
        now: Date
    ) async throws {
        try await session.execute(
            """
            INSERT INTO members (conversation_id, user_id, role, muted, last_read_id, joined_at)
            VALUES (\(conversationID), \(userID), \(role), false, \(lastReadID), \(now.storedPrecision))
            """)
    }

    func createGroup(
        id: String, name: String, by creatorID: String, members: [String], product: Product, now: Date,
        notices: ChangeNotices<ConversationRecord>?
    ) async throws -> ConversationRecord {
        try await write(reporting: notices) { session in
            let conversation = ConversationRecord(
                id: id, kind: ConversationKind.group.rawValue, name: name, directKey: nil, createdBy: creatorID,
                createdAt: now, lastMessageId: nil, activity: try await Self.currentActivity(session),
                product: product.rawValue)
            try await session.execute(
                """
                INSERT INTO conversations (id, kind, name, created_by, created_at, activity, product)
                VALUES (\(id), \(conversation.kind), \(name), \(creatorID), \(now.storedPrecision),
                    \(conversation.activity), \(product.rawValue))
                """)
            for member in [creatorID] + members {
                try await Self.insertMember(
                    session, id, member, role: member == creatorID ? "admin" : "member", lastReadID: 0, now: now)
            }
            return conversation
        }
    }

    // MARK: Group administration

    func rename(_ conversationID: String, to name: String, by userID: String) async throws {
        try await write { session in
            let (conversation, member) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            try GroupRules.requireAdmin(member.isAdmin, to: "rename it")
            try await session.execute("UPDATE conversations SET name = \(name) WHERE id = \(conversationID)")
        }
    }

    func requireGroupMember(_ conversationID: String, _ userID: String) async throws {
        try await read { session in
            try GroupRules.requireGroup(try await Self.membership(session, conversationID, userID).0.conversationKind)
        }
    }

    func addMembers(
        _ userIDs: [String], to conversationID: String, by userID: String, now: Date,
        notices: ChangeNotices<AddedMembers>?
    ) async throws -> AddedMembers {
        try await write(reporting: notices) { session in
            // Under the conversation's lock: two replicas adding at once cannot both pass the size check.
            let (conversation, _) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            let existing = Set(try await Self.members(session, conversationID).map(\.userId))
            let added = userIDs.filter { !existing.contains($0) }
            guard existing.count + added.count <= MessagingLimits.maximumGroupSize else {
                throw MessagingError.groupFull
            }
            // Newcomers see the history, but it is not unread for them (as in Zulip).
            let read =
                try await session.value(
                    "SELECT COALESCE(MAX(id), 0) FROM messages WHERE conversation_id = \(conversationID)",
                    as: Int64.self) ?? 0
            for member in added {
                try await Self.insertMember(session, conversationID, member, role: "member", lastReadID: read, now: now)
            }
            return AddedMembers(userIDs: added, groupName: conversation.name)
        }
    }

    func removeMember(_ memberID: String, from conversationID: String, by userID: String) async throws -> [String] {
        try await write { session in
            // Under the conversation's lock: two admins leaving at once still leave the group an admin.
            let (conversation, caller) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            let members = try await Self.members(session, conversationID)
            guard members.contains(where: { $0.userId == memberID }) else {
                throw MessagingError.notFound("The member")
            }
            if memberID != userID {
                try GroupRules.requireAdmin(caller.isAdmin, to: "remove members")
                guard memberID != conversation.createdBy else { throw MessagingError.creatorNotRemovable }
            }
            try await session.execute(
                "DELETE FROM members WHERE conversation_id = \(conversationID) AND user_id = \(memberID)")
            let remaining = members.filter { $0.userId != memberID }
            if let first = remaining.first, !remaining.contains(where: \.isAdmin) {
                try await session.execute(
                    """
                    UPDATE members SET role = 'admin'
                    WHERE conversation_id = \(conversationID) AND user_id = \(first.userId)
                    """)
            }
            return remaining.map(\.userId)
        }
    }

    func setRole(_ role: String, of memberID: String, in conversationID: String, by userID: String) async throws {
        try await write { session in
            let (conversation, caller) = try await Self.membership(session, conversationID, userID, lock: true)
            try GroupRules.requireGroup(conversation.conversationKind)
            try GroupRules.requireAdmin(caller.isAdmin, to: "change roles")
            guard try await Self.members(session, conversationID).contains(where: { $0.userId == memberID }) else {
                throw MessagingError.notFound("The member")
            }
            guard !(memberID == conversation.createdBy && role != "admin") else {
                throw MessagingError.creatorStaysAdmin
            }
            try await session.execute(
                "UPDATE members SET role = \(role) WHERE conversation_id = \(conversationID) AND user_id = \(memberID)")
        }
    }

    func setMuted(_ muted: Bool, conversation conversationID: String, for userID: String) async throws {
        try await write { session in
            _ = try await Self.membership(session, conversationID, userID)
            try await session.execute(
                "UPDATE members SET muted = \(muted) WHERE conversation_id = \(conversationID) AND user_id = \(userID)")
        }
    }

    func commonGroups(of userID: String, and otherID: String, after cursor: (Int64, String)?, limit: Int)
        async throws -> [FriendGroup]
    {
        let (activity, id) = cursor ?? (.max, "")
        return try await read { session in
            try await session.rows(
                """
                SELECT c.id, c.name, c.activity, c.created_at,
                       (SELECT COUNT(*) FROM members m WHERE m.conversation_id = c.id),
                       (SELECT created_at FROM messages WHERE id = c.last_message_id)
                FROM members a
                JOIN members b ON b.conversation_id = a.conversation_id AND b.user_id = \(otherID)
                JOIN conversations c ON c.id = a.conversation_id
                WHERE a.user_id = \(userID) AND c.kind = 'group'
                  AND (c.activity < \(activity) OR (c.activity = \(activity) AND c.id < \(id)))
                ORDER BY c.activity DESC, c.id DESC LIMIT \(limit)
                """
            ).map { row in
                let (id, name, activity, createdAt, memberCount, lastMessageAt) = try row.decode(
                    (String, String?, Int64, Date, Int, Date?).self)
                return FriendGroup(
                    id: id, name: name, memberCount: memberCount, lastActivityAt: lastMessageAt ?? createdAt,
                    activity: activity)
            }
        }
    }
}
