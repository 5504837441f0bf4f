import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresSocialStore {
    func follow(_ follower: String, _ followee: String, now: Date, notices: ChangeNotices<Relationship>?)
        async throws -> Relationship
    {
        guard PostgresText.fits(follower, followee) else { throw SocialError.notFound("The user") }
        return try await write(reporting: notices) { db in
            try await db.lockPair(follower, followee)
            if let refusal = SocialRules.refuseFollow(
                from: follower, to: followee, try await Self.relationship(db, follower, followee))
            {
                throw refusal
            }
            try await db.execute(
                """
                INSERT INTO follows (follower_id, followee_id, status, created_at)
                VALUES (\(follower), \(followee), 'pending', \(now.millisecondsSince1970))
                """)
            return try await Self.relationship(db, follower, followee)
        }
    }

    func answerFollow(of follower: String, to followee: String, approve: Bool, notices: ChangeNotices<Bool>?)
        async throws
    {
        guard PostgresText.fits(follower, followee) else { throw SocialError.notFound("The follow request") }
        _ = try await write(reporting: notices) { db in
            try await db.lockPair(follower, followee)
            let query: PostgresQuery =
                approve
                ? """
                UPDATE follows SET status = 'approved'
                WHERE follower_id = \(follower) AND followee_id = \(followee) AND status = 'pending' RETURNING 1
                """
                : """
                DELETE FROM follows WHERE follower_id = \(follower) AND followee_id = \(followee) AND status = 'pending'
                RETURNING 1
                """
            guard try await db.execute(query) > 0 else { throw SocialError.notFound("The follow request") }
            return approve
        }
    }

    func endFollow(of follower: String, to followee: String, approvedOnly: Bool) async throws {
        let notFound = SocialError.notFound(approvedOnly ? "The follower" : "The follow")
        guard PostgresText.fits(follower, followee) else { throw notFound }
        try await write { db in
            try await db.lockPair(follower, followee)
            let query: PostgresQuery =
                approvedOnly
                ? """
                DELETE FROM follows WHERE follower_id = \(follower) AND followee_id = \(followee) AND status = 'approved'
                RETURNING 1
                """
                : "DELETE FROM follows WHERE follower_id = \(follower) AND followee_id = \(followee) RETURNING 1"
            guard try await db.execute(query) > 0 else { throw notFound }
        }
    }

    func follows(of userID: String, _ side: FollowSide, after cursor: String?, limit: Int) async throws -> [String] {
        guard PostgresText.fits(userID) else { return [] }
        guard PostgresText.fits(cursor) else { throw PageCursor.invalid }
        let (column, mine, status) = side.columns
        return try await read { db in
            try await Self.strings(
                db,
                """
                SELECT \(unescaped: column) FROM follows
                WHERE \(unescaped: mine) = \(userID) AND status = \(status) AND \(unescaped: column) > \(cursor ?? "")
                ORDER BY \(unescaped: column) LIMIT \(limit)
                """)
        }
    }

    // MARK: Blocks

    func block(_ blocker: String, _ blocked: String, now: Date) async throws {
        if let refusal = SocialRules.refuseBlock(by: blocker, of: blocked) { throw refusal }
        guard PostgresText.fits(blocker, blocked) else { throw SocialError.notFound("The user") }
        try await write { db in
            try await db.lockPair(blocker, blocked)
            let at = now.millisecondsSince1970
            try await db.execute(
                """
                INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES (\(blocker), \(blocked), \(at))
                ON CONFLICT DO NOTHING
                """)
            let (low, high) = friendshipPair(blocker, blocked)
            try await db.execute("DELETE FROM friendships WHERE user_low = \(low) AND user_high = \(high)")
            try await db.execute(
                """
                UPDATE friend_requests SET status = 'cancelled', responded_at = \(at) WHERE status = 'pending'
                AND ((sender_id = \(blocker) AND recipient_id = \(blocked))
                    OR (sender_id = \(blocked) AND recipient_id = \(blocker)))
                """)
            try await db.execute(
                """
                DELETE FROM follows WHERE (follower_id = \(blocker) AND followee_id = \(blocked))
                OR (follower_id = \(blocked) AND followee_id = \(blocker))
                """)
        }
    }

    func unblock(_ blocker: String, _ blocked: String) async throws {
        guard PostgresText.fits(blocker, blocked) else { throw SocialError.notFound("The block") }
        try await write { db in
            try await db.lockPair(blocker, blocked)
            let deleted = try await db.execute(
                "DELETE FROM blocks WHERE blocker_id = \(blocker) AND blocked_id = \(blocked) RETURNING 1")
            guard deleted > 0 else { throw SocialError.notFound("The block") }
        }
    }

    /// The key of a block is its time in milliseconds (as decimal text) and the blocked id.
    func blockedIDs(by userID: String, after cursor: [String]?, limit: Int) async throws -> [(
        id: String, key: [String]
    )] {
        guard PostgresText.fits(userID) else { return [] }
        var after: (at: Int64, id: String)?
        if let cursor {
            guard cursor.count == 2, let at = Int64(cursor[0]), PostgresText.fits(cursor[1]) else {
                throw PageCursor.invalid
            }
            after = (at, cursor[1])
        }
        let query: PostgresQuery =
            if let after {
                """
                SELECT blocked_id, created_at FROM blocks
                WHERE blocker_id = \(userID) AND (created_at, blocked_id) < (\(after.at), \(after.id))
                ORDER BY created_at DESC, blocked_id DESC LIMIT \(limit)
                """
            } else {
                """
                SELECT blocked_id, created_at FROM blocks WHERE blocker_id = \(userID)
                ORDER BY created_at DESC, blocked_id DESC LIMIT \(limit)
                """
            }
        return try await read { db in
            try await db.rows(query).map { row in
                let (id, at) = try row.decode((String, Int64).self)
                return (id: id, key: [String(at), id])
            }
        }
    }

    // MARK: Profiles

    func save(_ profiles: [ProfileRecord]) async throws {
        let profiles = profiles.filter { PostgresText.fits($0.userId, $0.username, $0.displayName, $0.avatarUrl) }
        guard !profiles.isEmpty else { return }
        try await write { db in
            for profile in profiles {
                try await db.execute(
                    """
                    INSERT INTO profiles (user_id, username, display_name, avatar_url, fetched_at)
                    VALUES (\(profile.userId), \(profile.username), \(profile.displayName), \(profile.avatarUrl),
                        \(profile.fetchedAt.millisecondsSince1970))
                    ON CONFLICT (user_id) DO UPDATE SET username = excluded.username,
                        display_name = excluded.display_name, avatar_url = excluded.avatar_url,
                        fetched_at = excluded.fetched_at
                    """)
            }
        }
    }

    func profiles(_ ids: [String]) async throws -> [ProfileRecord] {
        let ids = PostgresText.fitting(ids)
        guard !ids.isEmpty else { return [] }
        return try await read { db in
            try await db.rows(
                "SELECT \(unescaped: ProfileRecord.postgresColumns) FROM profiles p WHERE p.user_id = ANY(\(ids))"
            ).map(ProfileRecord.init(postgres:))
        }
    }
}
