import Foundation
import GRDB

extension SQLiteSocialStore {
    static func relationship(_ db: Database, _ viewer: String, _ other: String) throws -> Relationship {
        let (low, high) = friendshipPair(viewer, other)
        var relationship = Relationship()
        relationship.friends =
            try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT 1 FROM friendships WHERE user_low = ? AND user_high = ?"),
                arguments: [low, high])
            ?? false
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT sender_id FROM friend_requests WHERE status = 'pending'
                    AND ((sender_id = ? AND recipient_id = ?) OR (sender_id = ? AND recipient_id = ?))
                    """), arguments: [viewer, other, other, viewer])
        {
            let sender: String = row["sender_id"]
            if sender == viewer {
                relationship.friendRequestSent = true
            } else {
                relationship.friendRequestReceived = true
            }
        }
        for row in try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT follower_id, status FROM follows
                    WHERE (follower_id = ? AND followee_id = ?) OR (follower_id = ? AND followee_id = ?)
                    """), arguments: [viewer, other, other, viewer])
        {
            let follower: String = row["follower_id"]
            let approved = (row["status"] as String) == "approved"
            if follower == viewer {
                relationship.following = approved
                relationship.followRequestSent = !approved
            } else {
                relationship.followedBy = approved
                relationship.followRequestReceived = !approved
            }
        }
        let blockers = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT blocker_id FROM blocks WHERE (blocker_id = ? AND blocked_id = ?) OR (blocker_id = ? AND blocked_id = ?)
                    """), arguments: [viewer, other, other, viewer])
        relationship.blocking = blockers.contains(viewer)
        relationship.blocked = !blockers.isEmpty
        return relationship
    }

    func relationship(_ viewer: String, _ other: String) async throws -> Relationship {
        try await read { db in try Self.relationship(db, viewer, other) }
    }

    /// Everything about how `viewer` stands to each of a page of `others`, in one read.
    func fullRelationships(of viewer: String, among others: [String]) async throws -> [String: Relationship] {
        try await read { db in
            var result: [String: Relationship] = [:]
            for other in Set(others) { result[other] = try Self.relationship(db, viewer, other) }
            return result
        }
    }

    /// Friend ids, following ids and block ids of `viewer` restricted to `others`, for colouring many
    /// map pins in one call.
    func relationships(of viewer: String, among others: [String]) async throws -> [String: Relationship] {
        try await read { db in
            let friends = Set(try Self.friendIDs(db, viewer))
            let following = Set(
                try String.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT followee_id FROM follows WHERE follower_id = ? AND status = 'approved'"),
                    arguments: [viewer]))
            let blocked = Set(try Self.blockedEitherWay(db, viewer))
            return Relationship.facts(of: others, friends: friends, following: following, blocked: blocked)
        }
    }

    static func friendIDs(_ db: Database, _ userID: String) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT user_high FROM friendships WHERE user_low = ? UNION ALL SELECT user_low FROM friendships WHERE user_high = ?"
            ),
            arguments: [userID, userID])
    }

    func friendIDs(of userID: String) async throws -> [String] {
        try await read { db in try Self.friendIDs(db, userID) }
    }

    /// Those the user blocked and those who blocked the user.
    static func blockedEitherWay(_ db: Database, _ userID: String) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT blocked_id FROM blocks WHERE blocker_id = ? UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?"
            ),
            arguments: [userID, userID])
    }

    func blockedEitherWay(of userID: String) async throws -> [String] {
        try await read { db in try Self.blockedEitherWay(db, userID) }
    }

    func friendAndBlockedIDs(of userID: String) async throws -> (friends: [String], blocked: [String]) {
        try await read { db in (try Self.friendIDs(db, userID), try Self.blockedEitherWay(db, userID)) }
    }

    func followingIDs(of userID: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT followee_id FROM follows WHERE follower_id = ? AND status = 'approved' ORDER BY followee_id"
                ),
                arguments: [userID])
        }
    }
}
