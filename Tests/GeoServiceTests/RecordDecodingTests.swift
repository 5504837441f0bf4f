import Foundation
import GRDB
import TestSupport
import Testing

@testable import GeoService

/// Packs and posts, read column by column on every list of them, decode as their `Codable` conformance would.
@Suite struct RecordDecodingTests {
    @Test func packsAndPostsDecodeByColumnAsByCodable() async throws {
        let database = try SQLiteGeoStore(.inMemory)
        let now = Date(timeIntervalSince1970: 1_795_000_000.5)
        try await database.write { db in
            var open = PackRecord(
                id: nil, name: "Night owls", latitude: 48.8566, longitude: 2.3522, radiusMeters: 500,
                tags: #"["music","late"]"#, color: "#123456", icon: "owl", locked: true, alphaId: "u1", official: false,
                memberCount: 3, postCount: 2, upVotes: 5, downVotes: 1, createdAt: now,
                expiresAt: now.addingTimeInterval(3600), warned: true)
            try open.insert(db)
            var official = PackRecord(
                id: nil, name: "Campus", latitude: -33.8688, longitude: 151.2093, radiusMeters: 2000, tags: "[]",
                color: "#654321", icon: "star", locked: false, alphaId: "admin", official: true, memberCount: 0,
                postCount: 0, upVotes: 0, downVotes: 0, createdAt: now, expiresAt: nil, warned: false)
            try official.insert(db)
            for hidden in [false, true] {
                var post = PostRecord(
                    id: nil, packId: open.id!, authorId: "u1", pseudonym: "Blue Fox", title: "Hi 👋",
                    body: "Anyone up?", tags: #"["late"]"#, upVotes: 2, downVotes: 1, commentCount: 4, hot: 1.25,
                    hidden: hidden, createdAt: now)
                try post.insert(db)
            }
        }
        let decoded = try await database.read { db in
            [
                try expectDecodedAsCodableWould(PackRecord.self, db, "SELECT * FROM packs"),
                try expectDecodedAsCodableWould(PostRecord.self, db, "SELECT * FROM posts"),
            ]
        }
        #expect(decoded == [2, 2])
    }
}
