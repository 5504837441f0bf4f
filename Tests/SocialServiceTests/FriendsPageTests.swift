import Foundation
import GRDB
import PlatformKit
import TestSupport
import Testing

@testable import SocialService

/// A page of my friends is read one of two ways on SQLite (``SQLiteSocialStore/hasManyFriends(_:_:limit:)``), one on
/// PostgreSQL; all give the same pages: all my friends' profiles by username (no username first, then ASCII
/// case-insensitively as SQLite's NOCASE, then by id), those without a username included when a page ends among them.
@Suite struct FriendsPageTests {
    @Test(arguments: StoreKind.allCases)
    func everyWayOfReadingFriendsPagesInOneOrder(kind: StoreKind) async throws {
        try await withSocialStores(kind) { stores in try await pages(stores[0]) }
    }

    func pages(_ database: any SocialStore) async throws {
        var random = SplitMix64(seed: 3)
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
        try await insertFriendships(friendships.map { ($0[0], $0[1]) }, at: now, into: database)
        let profiles = try await database.profiles(users)
        #expect(profiles.filter { $0.username == nil }.count > 3)
        for user in ["u000", "u001"] {
            // No username first, then usernames with ASCII letters folded, by bytes, then ids.
            let expected = profiles.filter { profile in
                let pair = friendshipPair(user, profile.userId)
                return friendships.contains([pair.low, pair.high])
            }.sorted { a, b in
                let keyA = (a.username == nil ? 0 : 1, Array((a.username ?? "").lowercased().utf8), a.userId)
                let keyB = (b.username == nil ? 0 : 1, Array((b.username ?? "").lowercased().utf8), b.userId)
                if keyA.0 != keyB.0 { return keyA.0 < keyB.0 }
                if keyA.1 != keyB.1 { return keyA.1.lexicographicallyPrecedes(keyB.1) }
                return keyA.2 < keyB.2
            }.map(\.userId)
            for limit in [2, 3, 7, 50] {
                if let sqlite = database as? SQLiteSocialStore {
                    // u000's ~120 friends among 150 profiles are many for a page of 7 (sqrt(2.6 × 8 × 150) = 56), not
                    // of 50 (140).
                    let many = user == "u000" && limit < 50
                    #expect(
                        try await sqlite.read { db in try SQLiteSocialStore.hasManyFriends(db, user, limit: limit + 1) }
                            == many)
                }
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
