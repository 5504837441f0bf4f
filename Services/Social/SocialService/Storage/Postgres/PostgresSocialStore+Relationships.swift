import Foundation
import PostgresNIO
import ServiceKit

extension PostgresSocialStore {
    static func relationship(_ db: PostgresSession, _ viewer: String, _ other: String) async throws -> Relationship {
        var relationship = Relationship()
        guard PostgresText.fits(viewer, other) else { return relationship }
        let (low, high) = friendshipPair(viewer, other)
        relationship.friends =
            try await db.value(
                "SELECT 1 FROM friendships WHERE user_low = \(low) AND user_high = \(high)", as: Int32.self)
            != nil
        for row in try await db.rows(
            """
            SELECT sender_id FROM friend_requests WHERE status = 'pending'
            AND ((sender_id = \(viewer) AND recipient_id = \(other)) OR (sender_id = \(other) AND recipient_id = \(viewer)))
            """)
        {
            if try row.decode(String.self) == viewer {
                relationship.friendRequestSent = true
            } else {
                relationship.friendRequestReceived = true
            }
        }
        for row in try await db.rows(
            """
            SELECT follower_id, status FROM follows
            WHERE (follower_id = \(viewer) AND followee_id = \(other)) OR (follower_id = \(other) AND followee_id = \(viewer))
            """)
        {
            let (follower, status) = try row.decode((String, String).self)
            let approved = status == "approved"
            if follower == viewer {
                relationship.following = approved
                relationship.followRequestSent = !approved
            } else {
                relationship.followedBy = approved
                relationship.followRequestReceived = !approved
            }
        }
        let blockers = try await db.rows(
            """
            SELECT blocker_id FROM blocks
            WHERE (blocker_id = \(viewer) AND blocked_id = \(other)) OR (blocker_id = \(other) AND blocked_id = \(viewer))
            """
        ).map { try $0.decode(String.self) }
        relationship.blocking = blockers.contains(viewer)
        relationship.blocked = !blockers.isEmpty
        return relationship
    }

    func relationship(_ viewer: String, _ other: String) async throws -> Relationship {
        try await snapshot { db in try await Self.relationship(db, viewer, other) }
    }

    func fullRelationships(of viewer: String, among others: [String]) async throws -> [String: Relationship] {
        try await snapshot { db in
            var result: [String: Relationship] = [:]
            for other in Set(others) { result[other] = try await Self.relationship(db, viewer, other) }
            return result
        }
    }

    func relationships(of viewer: String, among others: [String]) async throws -> [String: Relationship] {
        try await snapshot { db in
            let friends = Set(try await Self.friendIDs(db, viewer))
            let following = Set(try await Self.followingIDs(db, viewer))
            let blocked = Set(try await Self.blockedEitherWay(db, viewer))
            return Relationship.facts(of: others, friends: friends, following: following, blocked: blocked)
        }
    }

    static func strings(_ db: PostgresSession, _ query: PostgresQuery) async throws -> [String] {
        try await db.rows(query).map { try $0.decode(String.self) }
    }

    static func friendIDs(_ db: PostgresSession, _ userID: String) async throws -> [String] {
        guard PostgresText.fits(userID) else { return [] }
        return try await strings(
            db,
            """
            SELECT user_high FROM friendships WHERE user_low = \(userID)
            UNION ALL SELECT user_low FROM friendships WHERE user_high = \(userID)
            """)
    }

    func friendIDs(of userID: String) async throws -> [String] {
        try await read { db in try await Self.friendIDs(db, userID) }
    }

    static func blockedEitherWay(_ db: PostgresSession, _ userID: String) async throws -> [String] {
        guard PostgresText.fits(userID) else { return [] }
        return try await strings(
            db,
            """
            SELECT blocked_id FROM blocks WHERE blocker_id = \(userID)
            UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(userID)
            """)
    }

    func blockedEitherWay(of userID: String) async throws -> [String] {
        try await read { db in try await Self.blockedEitherWay(db, userID) }
    }

    func friendAndBlockedIDs(of userID: String) async throws -> (friends: [String], blocked: [String]) {
        let (friends, blocked) = try await snapshot { db in
            (try await Self.friendIDs(db, userID), try await Self.blockedEitherWay(db, userID))
        }
        return (friends, blocked)
    }

    static func followingIDs(_ db: PostgresSession, _ userID: String) async throws -> [String] {
        guard PostgresText.fits(userID) else { return [] }
        return try await strings(
            db,
            "SELECT followee_id FROM follows WHERE follower_id = \(userID) AND status = 'approved' ORDER BY followee_id"
        )
    }

    func followingIDs(of userID: String) async throws -> [String] {
        try await read { db in try await Self.followingIDs(db, userID) }
    }
}
