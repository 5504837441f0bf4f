import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresSocialStore {
    func friends(
        of userID: String, matching keyword: String?, excluding excluded: [String], after cursor: [String]?, limit: Int
    ) async throws -> [ProfileRecord] {
        guard PostgresText.fits(userID, keyword) else { return [] }
        guard PostgresText.fitting(cursor ?? []).count == cursor?.count ?? 0 else { throw PageCursor.invalid }
        if keyword == nil, excluded.isEmpty, cursor == nil {
            return try await read { db in
                try await db.rows(Prepared<FirstPageOfFriends>(userID, limit)).map(ProfileRecord.init(postgres:))
            }
        }
        var bindings = PostgresBindings()
        bindings.append(userID)
        // A friend without a username (still choosing one) sorts first, as SQLite's NULL does; usernames sort as
        // SQLite's NOCASE does (ASCII letters folded, then bytes).
        var sql = """
            SELECT \(ProfileRecord.postgresColumns) FROM profiles p
            WHERE p.user_id IN (
                SELECT user_high FROM friendships WHERE user_low = $1
                UNION ALL SELECT user_low FROM friendships WHERE user_high = $1)
            """
        if let keyword {
            // SQLite's LIKE: ASCII letters match either case, anything else only itself.
            bindings.append(TextSearch.escaped(keyword))
            let pattern = "'%' || ascii_lower($\(bindings.count)) || '%'"
            sql += """
                 AND (ascii_lower(p.username) LIKE \(pattern) ESCAPE '\\'
                 OR ascii_lower(p.display_name) LIKE \(pattern) ESCAPE '\\')
                """
        }
        let excluded = PostgresText.fitting(excluded)
        if !excluded.isEmpty {
            bindings.append(excluded)
            sql += " AND p.user_id <> ALL($\(bindings.count))"
        }
        if let cursor, cursor.count == 2 {
            if cursor[0].isEmpty {
                // After a friend without a username (no username is empty): the rest of those, then the others.
                bindings.append(cursor[1])
                sql += " AND (p.username IS NOT NULL OR p.user_id > $\(bindings.count))"
            } else {
                bindings.append(cursor[0])
                bindings.append(cursor[1])
                sql += """
                     AND (ascii_lower(p.username) COLLATE "C", p.user_id)
                     > (ascii_lower($\(bindings.count - 1)) COLLATE "C", $\(bindings.count))
                    """
            }
        }
        bindings.append(limit)
        sql += " ORDER BY ascii_lower(p.username) COLLATE \"C\" NULLS FIRST, p.user_id LIMIT $\(bindings.count)"
        let query = PostgresQuery(unsafeSQL: sql, binds: bindings)
        return try await read { db in try await db.rows(query).map(ProfileRecord.init(postgres:)) }
    }

    /// The first page of a friend list, the one every app opens: prepared (the same query as `friends`' without
    /// its options).
    enum FirstPageOfFriends: PreparedSQL {
        static let sql = """
            SELECT \(ProfileRecord.postgresColumns) FROM profiles p
            WHERE p.user_id IN (
                SELECT user_high FROM friendships WHERE user_low = $1
                UNION ALL SELECT user_low FROM friendships WHERE user_high = $1)
            ORDER BY ascii_lower(p.username) COLLATE "C" NULLS FIRST, p.user_id LIMIT $2
            """
    }

    func mutualFriends(of viewer: String, and other: String) async throws -> [String] {
        try await snapshot { db in
            guard try await !Self.relationship(db, viewer, other).blocked else { return [] }
            return Set(try await Self.friendIDs(db, viewer)).intersection(try await Self.friendIDs(db, other)).sorted()
        }
    }

    func suggestions(for userID: String, limit: Int) async throws -> [(userID: String, mutualFriends: Int)] {
        guard PostgresText.fits(userID) else { return [] }
        return try await snapshot { db in
            let friends = Set(try await Self.friendIDs(db, userID))
            var pairs: [(friend: String, candidate: String)] = []
            for friend in friends {
                for candidate in try await Self.friendIDs(db, friend) { pairs.append((friend, candidate)) }
            }
            let excluded = Set(
                try await Self.strings(
                    db,
                    """
                    SELECT blocked_id FROM blocks WHERE blocker_id = \(userID)
                    UNION SELECT blocker_id FROM blocks WHERE blocked_id = \(userID)
                    UNION SELECT recipient_id FROM friend_requests WHERE sender_id = \(userID) AND status = 'pending'
                    """))
            return Array(
                SocialRules.suggestions(me: userID, friends: friends, friendsOfFriends: pairs, excluded: excluded)
                    .prefix(limit))
        }
    }
}
