import Foundation
import GRDB
import ServiceKit

extension SQLiteSocialStore {
    /// Asks `followee` for approval to follow; returns how `follower` now stands to them.
    func follow(_ follower: String, _ followee: String, now: Date, notices: ChangeNotices<Relationship>?)
        async throws -> Relationship
    {
        try await write(reporting: notices) { db in
            if let refusal = SocialRules.refuseFollow(
                from: follower, to: followee, try Self.relationship(db, follower, followee))
            {
                throw refusal
            }
            try db.execute(
                sql: "INSERT INTO follows (follower_id, followee_id, status, created_at) VALUES (?, ?, 'pending', ?)",
                arguments: [follower, followee, now])
            return try Self.relationship(db, follower, followee)
        }
    }

    /// Approves or rejects a pending follow request addressed to `followee`.
    func answerFollow(of follower: String, to followee: String, approve: Bool, notices: ChangeNotices<Bool>?)
        async throws
    {
        _ = try await write(reporting: notices) { db in
            let sql =
                approve
                ? "UPDATE follows SET status = 'approved' WHERE follower_id = ? AND followee_id = ? AND status = 'pending'"
                : "DELETE FROM follows WHERE follower_id = ? AND followee_id = ? AND status = 'pending'"
            try db.execute(sql: sql, arguments: [follower, followee])
            guard db.changesCount > 0 else { throw SocialError.notFound("The follow request") }
            return approve
        }
    }

    /// Ends a follow (approved or still pending): `follower` unfollowing, or `followee` removing a follower.
    func endFollow(of follower: String, to followee: String, approvedOnly: Bool) async throws {
        try await write { db in
            let sql =
                approvedOnly
                ? "DELETE FROM follows WHERE follower_id = ? AND followee_id = ? AND status = 'approved'"
                : "DELETE FROM follows WHERE follower_id = ? AND followee_id = ?"
            try db.execute(sql: sql, arguments: [follower, followee])
            guard db.changesCount > 0 else { throw SocialError.notFound(approvedOnly ? "The follower" : "The follow") }
        }
    }

    /// User ids on one side of `userID`'s follows: its followers, its followees, or who asks to follow it;
    /// by id after `cursor` (the last id of the previous page), at most `limit`.
    func follows(of userID: String, _ side: FollowSide, after cursor: String?, limit: Int) async throws -> [String] {
        let (column, mine, status) = side.columns
        return try await read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT \(column) FROM follows WHERE \(mine) = ? AND status = ? AND \(column) > ?
                    ORDER BY \(column) LIMIT ?
                    """,
                arguments: [userID, status, cursor ?? "", limit])
        }
    }
}
