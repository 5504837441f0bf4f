import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SocialDatabase {
    /// My friends with their profile basics, by username, optionally those whose username or display
    /// name contains `keyword`, other than those `excluded`, after `cursor` (the last username and id of the
    /// previous page).
    func friends(
        of userID: String, matching keyword: String?, excluding excluded: [String] = [], after cursor: [String]?,
        limit: Int
    ) async throws -> [ProfileRecord] {
        let search = keyword.map(TextSearch.escaped)
        return try await read { db in
            // Driven from the profiles' username index: a page stops after `limit` friends instead of
            // sorting all of them. Profiles are copied when a friendship starts; a user without a username
            // (still choosing one) sorts first.
            // SQL and arguments written out rather than through GRDB's `SQL` literal, which builds its text again on
            // every call (3% of this read).
            var sql = """
                SELECT \(ProfileRecord.selectList) FROM profiles p
                WHERE p.user_id IN (
                    SELECT user_high FROM friendships WHERE user_low = ?
                    UNION ALL SELECT user_low FROM friendships WHERE user_high = ?)
                """
            var arguments: [any DatabaseValueConvertible] = [userID, userID]
            if let search {
                sql += " AND (\(TextSearch.contains("p.username")) OR \(TextSearch.contains("p.display_name")))"
                arguments += [search, search]
            }
            if !excluded.isEmpty {
                sql += " AND p.user_id NOT IN (\(Array(repeating: "?", count: excluded.count).joined(separator: ", ")))"
                arguments += excluded
            }
            if let cursor, cursor.count == 2 {
                sql += " AND (p.username, p.user_id) > (?, ?)"
                arguments += [cursor[0], cursor[1]]
            }
            sql += " ORDER BY p.username, p.user_id LIMIT ?"
            arguments.append(limit)
            // Without an excluded list the SQL has four shapes, kept compiled; a list of any length is not.
            let statement = try excluded.isEmpty ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
            return try ProfileRecord.fetchAll(statement, arguments: StatementArguments(arguments))
        }
    }

    /// Friends `viewer` and `other` have in common. A block either way shares nothing, and answers as for
    /// someone with no friends in common: a 404 (and a 200 for every other id, known or not) would tell the
    /// blocked user of the block.
    func mutualFriends(of viewer: String, and other: String) async throws -> [String] {
        try await read { db in
            guard try !Self.relationship(db, viewer, other).blocked else { return [] }
            return Set(try Self.friendIDs(db, viewer)).intersection(try Self.friendIDs(db, other)).sorted()
        }
    }

    /// Friends of my friends I am not connected to, most mutual friends first.
    func suggestions(for userID: String, limit: Int) async throws -> [(userID: String, mutualFriends: Int)] {
        try await read { db in
            let friends = Set(try Self.friendIDs(db, userID))
            var pairs: [(friend: String, candidate: String)] = []
            for friend in friends {
                for candidate in try Self.friendIDs(db, friend) { pairs.append((friend, candidate)) }
            }
            let excluded = Set(
                try String.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT blocked_id FROM blocks WHERE blocker_id = ? UNION SELECT blocker_id FROM blocks WHERE blocked_id = ?
                            UNION SELECT recipient_id FROM friend_requests WHERE sender_id = ? AND status = 'pending'
                            """), arguments: [userID, userID, userID]))
            return Array(
                SocialRules.suggestions(me: userID, friends: friends, friendsOfFriends: pairs, excluded: excluded)
                    .prefix(limit))
        }
    }
}
