import Foundation
import GRDB

extension SocialDatabase {
    /// Blocks `blocked`: ends friendship, pending requests and follows both ways.
    func block(_ blocker: String, _ blocked: String, now: Date) async throws {
        if let refusal = SocialRules.refuseBlock(by: blocker, of: blocked) { throw refusal }
        try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
                arguments: [blocker, blocked, now])
            let (low, high) = Self.pair(blocker, blocked)
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
        try await write { db in
            try db.execute(
                sql: "DELETE FROM blocks WHERE blocker_id = ? AND blocked_id = ?", arguments: [blocker, blocked])
            guard db.changesCount > 0 else { throw SocialError.notFound("The block") }
        }
    }

    func blockedIDs(by userID: String) async throws -> [String] {
        try await read { db in
            try String.fetchAll(
                db, sql: "SELECT blocked_id FROM blocks WHERE blocker_id = ? ORDER BY created_at DESC",
                arguments: [userID])
        }
    }
}
