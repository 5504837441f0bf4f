import Foundation
import GRDB

extension SQLiteSocialStore {
    /// Blocks `blocked`: ends friendship, pending requests and follows both ways.
    func block(_ blocker: String, _ blocked: String, now: Date) async throws {
        if let refusal = SocialRules.refuseBlock(by: blocker, of: blocked) { throw refusal }
        try await write { db in
            try db.execute(
                sql: "INSERT OR IGNORE INTO blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)",
                arguments: [blocker, blocked, now])
            let (low, high) = friendshipPair(blocker, blocked)
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

    /// Those `userID` blocked, newest first, after `cursor` (the stored time and id of the previous page's
    /// last block), at most `limit`; each with its key for the next cursor.
    func blockedIDs(by userID: String, after cursor: [String]?, limit: Int) async throws -> [(
        id: String, key: [String]
    )] {
        try await read { db in
            var sql = "SELECT blocked_id, CAST(created_at AS TEXT) AS at FROM blocks WHERE blocker_id = ?"
            var arguments: StatementArguments = [userID]
            if let cursor {
                sql += " AND (created_at, blocked_id) < (?, ?)"
                arguments += [cursor[0], cursor[1]]
            }
            sql += " ORDER BY created_at DESC, blocked_id DESC LIMIT ?"
            arguments += [limit]
            return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let id: String = row["blocked_id"]
                let at: String = row["at"]
                return (id: id, key: [at, id])
            }
        }
    }
}
