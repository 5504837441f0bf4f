import Foundation
import GRDB
import TestSupport
import Testing

@testable import SocialService

/// Profiles, read column by column on every list of people, decode as their `Codable` conformance would.
@Suite struct RecordDecodingTests {
    @Test func profilesDecodeByColumnAsByCodable() async throws {
        let database = try SQLiteSocialStore(.inMemory)
        let now = Date(timeIntervalSince1970: 1_795_000_000.5)
        try await database.save([
            ProfileRecord(
                userId: "ann", username: "ann", displayName: "Ann 漢字", avatarUrl: "https://cdn.example/a.png",
                fetchedAt: now),
            // A user still choosing a username, without an avatar.
            ProfileRecord(userId: "bob", username: nil, displayName: "Bob", avatarUrl: nil, fetchedAt: now),
            ProfileRecord(userId: "cat", username: "cat", displayName: "Cat", avatarUrl: nil, fetchedAt: now),
        ])
        try await database.write { db in
            try db.execute(
                sql:
                    "INSERT INTO friendships (user_low, user_high, created_at) VALUES ('ann', 'bob', ?), ('ann', 'cat', ?)",
                arguments: [now, now])
        }
        let decoded = try await database.read { db in
            try expectDecodedAsCodableWould(ProfileRecord.self, db, "SELECT * FROM profiles")
        }
        #expect(decoded == 3)
        // And through the friends page's own read.
        let friends = try await database.friends(of: "ann", matching: nil, after: nil, limit: 10)
        #expect(friends.map(\.userId) == ["bob", "cat"])
        #expect(friends[0].username == nil && friends[0].avatarUrl == nil && friends[1].displayName == "Cat")
        #expect(friends[1].fetchedAt == now)
    }
}
