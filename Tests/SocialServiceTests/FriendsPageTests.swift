import Foundation
import PlatformKit
import GRDB
import TestSupport
import Testing

@testable import SocialService

/// A page of my friends is read one of two ways (``SocialDatabase/hasManyFriends(_:_:limit:)``); both give the pages
/// the plain query gives: all my friends' profiles by username (no username first, then case-insensitively), then id,
/// those without a username included when a page ends among them.
@Suite struct FriendsPageTests {
    @Test func bothWaysOfReadingFriendsPageAsThePlainQuery() async throws {
        var random = SplitMix64(seed: 3)
        let database = try SocialDatabase(.inMemory)
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let names = ["ann", "Ann", "bob", "BOB", "cat", "dan", "eve", "zed"]
        let users = (0..<150).map { String(format: "u%03d", $0) }
        try await database.save(
            users.map { user in
                // Some without a username (still choosing one), some sharing a name in another case.
                let name = random.next() % 6 == 0 ? nil : names[Int(random.next() % UInt64(names.count))]
                return ProfileRecord(
                    userId: user, username: name.map { $0 + String(random.next() % 3) }, displayName: user,
                    avatarUrl: nil, fetchedAt: now)
            })
        // u000 is a friend of most, u001 of five.
        var friendships = Set<[String]>()
        for user in users.dropFirst() where random.next() % 10 < 8 { friendships.insert(["u000", user]) }
        for user in ["u003", "u010", "u020", "u030", "u149"] { friendships.insert(["u001", user]) }
        try await database.write { [friendships] db in
            for pair in friendships {
                let (low, high) = SocialDatabase.pair(pair[0], pair[1])
                try db.execute(
                    sql: "INSERT INTO friendships (user_low, user_high, created_at) VALUES (?, ?, ?)",
                    arguments: [low, high, now])
            }
        }
        let withoutName = try await database.read { db in
            Set(try String.fetchAll(db, sql: "SELECT user_id FROM profiles WHERE username IS NULL"))
        }
        #expect(withoutName.count > 3)
        for user in ["u000", "u001"] {
            let expected = try await database.read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT user_id FROM profiles WHERE user_id IN (
                            SELECT user_high FROM friendships WHERE user_low = ?1
                            UNION SELECT user_low FROM friendships WHERE user_high = ?1)
                        ORDER BY username COLLATE NOCASE, user_id
                        """, arguments: [user])
            }
            for limit in [2, 3, 7, 50] {
                // u000's ~120 friends among 150 profiles are many for a page of 7 (sqrt(2.6 × 8 × 150) = 56), not of
                // 50 (140).
                let many = user == "u000" && limit < 50
                #expect(
                    try await database.read { db in try SocialDatabase.hasManyFriends(db, user, limit: limit + 1) }
                        == many)
                var listed: [String] = []
                var cursor: [String]?
                while true {
                    let rows = try await database.friends(of: user, matching: nil, after: cursor, limit: limit + 1)
                    listed += rows.prefix(limit).map(\.userId)
                    guard rows.count > limit, let last = rows.prefix(limit).last else { break }
                    cursor = [last.username ?? "", last.userId]
                }
                #expect(listed == expected, "\(user), pages of \(limit)")
            }
        }
    }
}
