import Foundation
import GRDB
import PlatformKit

extension SocialDatabase {
    /// What sending a friend request did.
    enum FriendRequestOutcome: Sendable {
        case sent(FriendRequestRow)
        /// The other had already asked: both are friends now (their request is accepted).
        case becameFriends(FriendRequestRow)
    }

    func sendFriendRequest(from sender: String, to recipient: String, now: Date) async throws -> FriendRequestOutcome {
        try await writer.write { db in
            let relationship = try Self.relationship(db, sender, recipient)
            if let refusal = SocialRules.refuseFriendRequest(from: sender, to: recipient, relationship) {
                throw refusal
            }
            if relationship.friendRequestReceived,
                var theirs = try FriendRequestRow.filter(
                    Column("sender_id") == recipient && Column("recipient_id") == sender
                        && Column("status") == "pending"
                ).fetchOne(db)
            {
                theirs.status = "accepted"
                theirs.respondedAt = now
                try theirs.update(db)
                try Self.befriend(db, sender, recipient, now)
                return .becameFriends(theirs)
            }
            let request = FriendRequestRow(
                id: UUID().uuidString.lowercased(), senderId: sender, recipientId: recipient, status: "pending",
                createdAt: now)
            try request.insert(db)
            return .sent(request)
        }
    }

    enum RequestAnswer: String, Sendable {
        case accept, decline, cancel
    }

    /// Accepts or declines (the recipient) or cancels (the sender) a pending request; anyone else gets 404.
    func answer(_ requestID: String, by userID: String, _ answer: RequestAnswer, now: Date) async throws
        -> FriendRequestRow
    {
        try await writer.write { db in
            guard var request = try FriendRequestRow.fetchOne(db, key: requestID),
                answer == .cancel ? request.senderId == userID : request.recipientId == userID
            else { throw Problem.notFound("The friend request") }
            guard request.status == "pending" else {
                throw Problem.conflict("request_not_pending", "The friend request was already \(request.status).")
            }
            request.status =
                ["accept": "accepted", "decline": "declined", "cancel": "cancelled"][answer.rawValue] ?? "declined"
            request.respondedAt = now
            try request.update(db)
            if answer == .accept { try Self.befriend(db, request.senderId, request.recipientId, now) }
            return request
        }
    }

    private static func befriend(_ db: Database, _ a: String, _ b: String, _ now: Date) throws {
        let (low, high) = a < b ? (a, b) : (b, a)
        try db.execute(
            sql: "INSERT OR IGNORE INTO friendships (user_low, user_high, created_at) VALUES (?, ?, ?)",
            arguments: [low, high, now])
    }

    func pendingRequests(of userID: String, incoming: Bool) async throws -> [FriendRequestRow] {
        try await writer.read { db in
            try FriendRequestRow.filter(
                Column(incoming ? "recipient_id" : "sender_id") == userID && Column("status") == "pending"
            )
            .order(Column("created_at").desc).fetchAll(db)
        }
    }

    func unfriend(_ userID: String, _ friendID: String) async throws {
        try await writer.write { db in
            let (low, high) = userID < friendID ? (userID, friendID) : (friendID, userID)
            try db.execute(sql: "DELETE FROM friendships WHERE user_low = ? AND user_high = ?", arguments: [low, high])
            guard db.changesCount > 0 else { throw Problem.notFound("The friend") }
        }
    }

    // MARK: Follows

    func follow(_ follower: String, _ followee: String, now: Date) async throws {
        try await writer.write { db in
            if let refusal = SocialRules.refuseFollow(
                from: follower, to: followee, try Self.relationship(db, follower, followee))
            {
                throw refusal
            }
            try db.execute(
                sql: "INSERT INTO follows (follower_id, followee_id, status, created_at) VALUES (?, ?, 'pending', ?)",
                arguments: [follower, followee, now])
        }
    }

    /// Approves or rejects a pending follow request addressed to `followee`.
    func answerFollow(of follower: String, to followee: String, approve: Bool) async throws {
        try await writer.write { db in
            let sql =
                approve
                ? "UPDATE follows SET status = 'approved' WHERE follower_id = ? AND followee_id = ? AND status = 'pending'"
                : "DELETE FROM follows WHERE follower_id = ? AND followee_id = ? AND status = 'pending'"
            try db.execute(sql: sql, arguments: [follower, followee])
            guard db.changesCount > 0 else { throw Problem.notFound("The follow request") }
        }
    }

    /// Ends a follow (approved or still pending): `follower` unfollowing, or `followee` removing a follower.
    func endFollow(of follower: String, to followee: String, approvedOnly: Bool) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?"
                    + (approvedOnly ? " AND status = 'approved'" : ""),
                arguments: [follower, followee])
            guard db.changesCount > 0 else { throw Problem.notFound(approvedOnly ? "The follower" : "The follow") }
        }
    }

    /// User ids on one side of `userID`'s follows: its followers, its followees, or who asks to follow it.
    func follows(of userID: String, _ side: FollowSide) async throws -> [String] {
        try await writer.read { db in
            switch side {
            case .followers:
                try String.fetchAll(
                    db, sql: "SELECT follower_id FROM follows WHERE followee_id = ? AND status = 'approved'",
                    arguments: [userID])
            case .following:
                try String.fetchAll(
                    db, sql: "SELECT followee_id FROM follows WHERE follower_id = ? AND status = 'approved'",
                    arguments: [userID])
            case .requests:
                try String.fetchAll(
                    db, sql: "SELECT follower_id FROM follows WHERE followee_id = ? AND status = 'pending'",
                    arguments: [userID])
            }
        }
    }

    enum FollowSide: Sendable {
        case followers, following, requests
    }

    // MARK: Blocks

    /// Blocks `blocked`: ends friendship, pending requests and follows both ways.
    func block(_ blocker: String, _ blocked: String, now: Date) async throws {
        guard blocker != blocked else { throw Problem.badRequest("self_block", "You cannot block yourself.") }
        try await writer.write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
                arguments: [blocker, blocked, now])
            let (low, high) = blocker < blocked ? (blocker, blocked) : (blocked, blocker)
            try db.execute(sql: "DELETE FROM friendships WHERE user_low = ? AND user_high = ?", arguments: [low, high])
            try db.execute(
                sql: """
                    UPDATE friend_requests SET status = 'cancelled', responded_at = ? WHERE status = 'pending'
                    AND ((sender_id = ? AND recipient_id = ?) OR (sender_id = ? AND recipient_id = ?))
                    """,
                arguments: [now, blocker, blocked, blocked, blocker])
            try db.execute(
                sql:
                    "DELETE FROM follows WHERE (follower_id = ? AND followee_id = ?) OR (follower_id = ? AND followee_id = ?)",
                arguments: [blocker, blocked, blocked, blocker])
        }
    }

    func unblock(_ blocker: String, _ blocked: String) async throws {
        try await writer.write { db in
            try db.execute(
                sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", arguments: [blocker, blocked])
            guard db.changesCount > 0 else { throw Problem.notFound("The block") }
        }
    }

    func blockedIDs(by userID: String) async throws -> [String] {
        try await writer.read { db in
            try String.fetchAll(
                db, sql: "SELECT blocked_id FROM blocks WHERE blocker_id = ? ORDER BY created_at DESC",
                arguments: [userID])
        }
    }
}
