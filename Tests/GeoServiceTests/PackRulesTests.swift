import Foundation
import GRDB
import PlatformKit
import TestSupport
import Testing

@testable import GeoService

/// The pure rules of packs: ranking, lifetime, pseudonyms, positions and text cleaning; and the sweep's
/// batches against a real database.
@Suite struct PackRulesTests {
    @Test func hotScoreTradesTenTimesTheVotesFor12AndAHalfHours() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let later = start.addingTimeInterval(45_000)
        #expect(
            abs(PostRanking.hot(up: 10, down: 0, createdAt: start) - PostRanking.hot(up: 1, down: 0, createdAt: later))
                < 1e-9)
        #expect(PostRanking.hot(up: 0, down: 0, createdAt: start) == PostRanking.hot(up: 1, down: 0, createdAt: start))
        #expect(PostRanking.hot(up: 0, down: 100, createdAt: later) < PostRanking.hot(up: 0, down: 0, createdAt: start))
    }

    @Test func wilsonLowerBoundRewardsConfidenceNotJustTheShare() {
        #expect(PostRanking.wilsonLowerBound(up: 0, total: 0) == 0)
        let few = PostRanking.wilsonLowerBound(up: 2, total: 2)
        let many = PostRanking.wilsonLowerBound(up: 90, total: 100)
        #expect(few < many, "two of two is less certain than ninety of a hundred")
        #expect(abs(few - 0.5497) < 0.001)
        #expect(PostRanking.wilsonLowerBound(up: 0, total: 50) < 0.01)
    }

    @Test func userPacksLiveBetween24And48Hours() {
        let created = Date(timeIntervalSince1970: 0)
        func hours(_ members: Int, _ posts: Int, _ up: Int, _ down: Int) -> Double {
            PackLifetime.expiry(createdAt: created, members: members, posts: posts, upVotes: up, downVotes: down)
                .timeIntervalSince1970 / 3600
        }
        #expect(hours(1, 0, 0, 0) == 24, "the alpha alone earns nothing")
        #expect(hours(10_000, 10_000, 10_000, 0) <= 48)
        #expect(hours(10_000, 10_000, 10_000, 0) > 47.99)
        #expect(hours(5, 5, 0, 0) > hours(5, 0, 0, 0))
        #expect(abs(hours(1, 0, 0, 100) - 24) < 0.01, "down-votes do not keep a pack alive")
        #expect(hours(1, 0, 100, 0) > 40)
    }

    @Test func pseudonymsAreStableInAPackAndDifferAcrossPacksAndKeys() {
        let key = Data(repeating: 7, count: 32)
        let name = Pseudonyms.candidate(key: key, pack: 1, user: "u1", attempt: 0)
        #expect(name == Pseudonyms.candidate(key: key, pack: 1, user: "u1", attempt: 0))
        let others = (2...20).map { Pseudonyms.candidate(key: key, pack: Int64($0), user: "u1", attempt: 0) }
        #expect(others.contains { $0 != name })
        #expect(
            Pseudonyms.candidate(key: Data(repeating: 8, count: 32), pack: 1, user: "u1", attempt: 0) != name
                || Pseudonyms.candidate(key: Data(repeating: 9, count: 32), pack: 1, user: "u1", attempt: 0) != name)
        #expect(
            Pseudonyms.candidate(key: key, pack: 1, user: "u1", attempt: 1) != name
                || Pseudonyms.candidate(key: key, pack: 1, user: "u1", attempt: 2) != name)
        #expect(!name.contains("u1"))
    }

    @Test(arguments: StoreKind.allCases)
    func aThousandMembersGetAThousandDistinctNames(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in try await aThousandMembersGetAThousandDistinctNames(database) }
    }

    func aThousandMembersGetAThousandDistinctNames(_ database: any GeoStore) async throws {
        let now = Date()
        let pack = try await database.createPack(
            PackRecord(
                id: nil, name: "Big", latitude: 0, longitude: 0, radiusMeters: 1_000, tags: "[]", color: "#000000",
                icon: "x", locked: false, alphaId: "alpha", official: true, memberCount: 0, postCount: 0, upVotes: 0,
                downVotes: 0, createdAt: now, expiresAt: nil, warned: false), now: now)
        for user in 0..<999 { _ = try await database.join(pack.id!, user: "u\(user)", at: nil, now: now) }
        let names = try await RawSQL.column(
            database, "SELECT pseudonym FROM pack_members WHERE pack_id = \(pack.id!)", as: String.self)
        #expect(names.count == 1_000)
        #expect(Set(names).count == 1_000)
    }

    @Test func positionsParseAndTheEdgeCountsAsInside() throws {
        #expect(try ClientPosition.parse("48.85;2.35") == ClientPosition(latitude: 48.85, longitude: 2.35))
        #expect(try ClientPosition.parse(" -33.9 ; 151.2 ;epu=50") == ClientPosition(latitude: -33.9, longitude: 151.2))
        #expect(try ClientPosition.parse(nil) == nil)
        for bad in ["", "48.85", "48.85,2.35", "north;east", "91;0", "0;181", "nan;0"] {
            #expect(throws: Problem.self) { try ClientPosition.parse(bad) }
        }
        let north = 1_000 / Geodesy.earthRadius * 180 / .pi
        #expect(ClientPosition(latitude: north, longitude: 0).isInside(latitude: 0, longitude: 0, radius: 1_000))
        #expect(
            !ClientPosition(latitude: north * 1.001, longitude: 0).isInside(latitude: 0, longitude: 0, radius: 1_000))
        #expect(ClientPosition.roundedDistance(0) == 100)
        #expect(ClientPosition.roundedDistance(449) == 400)
        #expect(ClientPosition.roundedDistance(960) == 1_000)
        #expect(ClientPosition.roundedDistance(12_400) == 12_000)
    }

    @Test func anonymousTextIsStrippedNotRefused() throws {
        #expect(AnonymousText.line("a\u{0000}b\u{0007}c\n") == "abc")
        #expect(AnonymousText.body("one\ntwo\u{001B}\tthree") == "one\ntwo\tthree")
        #expect(AnonymousText.line("\u{202E}evil") == "evil")
        #expect(AnonymousText.line("👨‍👩‍👧") == "👨‍👩‍👧", "joiners inside emoji stay")
        #expect(AnonymousText.line("\u{0001}").isEmpty, "an empty line is then refused as any empty text")
        #expect(try AnonymousText.tags(["#Food", "food", "late-night"], required: true) == ["food", "late-night"])
        #expect(throws: GeoError.invalidField("tags", "choose at least one tag.")) {
            try AnonymousText.tags([], required: true)
        }
    }

    @Test(arguments: StoreKind.allCases, propertySeeds())
    func mergedPagesMatchASortOfEverything(_ kind: StoreKind, seed: UInt64) async throws {
        try await withGeoStore(kind) { database in try await mergedPagesMatchASortOfEverything(database, seed: seed) }
    }

    func mergedPagesMatchASortOfEverything(_ database: any GeoStore, seed: UInt64) async throws {
        let now = Date()
        var generator = SplitMix64(seed: seed)
        var packs: [PackRecord] = []
        for index in 0..<8 {
            packs.append(
                try await database.createPack(
                    PackRecord(
                        id: nil, name: "P\(index)", latitude: 0, longitude: 0, radiusMeters: 1_000, tags: "[]",
                        color: "#000000", icon: "x", locked: false, alphaId: "writer", official: true, memberCount: 0,
                        postCount: 0, upVotes: 0, downVotes: 0, createdAt: now, expiresAt: nil, warned: false), now: now
                ))
        }
        // Uneven packs (one empty), scores spread so that hot and id orders differ.
        for (index, pack) in packs.enumerated() where index > 0 {
            for _ in 0..<(index * 3) {
                let post = try await database.createPost(
                    pack: pack.id!, author: "writer", title: "t", body: "", tags: [], at: nil, admit: {}, now: now
                ).post
                let hot = Double.random(in: 0...10, using: &generator)
                try await RawSQL.execute(database, "UPDATE posts SET hot = \(hot) WHERE id = \(post.id!)")
            }
        }
        let ids = try await RawSQL.column(database, "SELECT id FROM posts ORDER BY id", as: Int64.self)
        let hots = try await RawSQL.column(database, "SELECT hot FROM posts ORDER BY id", as: Double.self)
        let everything = zip(ids, hots).map { (id: $0, hot: $1) }
        for order in [PostOrder.new, .top] {
            let expected = everything.sorted {
                order == .new ? $0.id > $1.id : ($0.hot, $0.id) > ($1.hot, $1.id)
            }.map(\.id)
            for limit in [1, 2, 5, 7, 200] {
                var seen: [Int64] = []
                var cursor: PostCursor?
                while true {
                    let page = try await database.posts(
                        in: packs, order: order, after: cursor, limit: limit, viewer: "reader")
                    seen += page.compactMap(\.post.id)
                    guard page.count == limit, let last = page.last?.post else { break }
                    cursor = PostCursor(id: last.id!, hot: order == .top ? last.hot : nil)
                }
                #expect(seen == expected, "\(order) in pages of \(limit)")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theSweepDeletesInBatchesAndLeavesLivePacksAlone(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in try await theSweepDeletesInBatchesAndLeavesLivePacksAlone(database) }
    }

    func theSweepDeletesInBatchesAndLeavesLivePacksAlone(_ database: any GeoStore) async throws {
        let now = Date()
        func pack(expiring: Date?) async throws -> Int64 {
            try await database.createPack(
                PackRecord(
                    id: nil, name: "P", latitude: 0, longitude: 0, radiusMeters: 1_000, tags: "[]", color: "#000000",
                    icon: "x", locked: false, alphaId: "alpha-\(UUID())", official: expiring == nil, memberCount: 0,
                    postCount: 0, upVotes: 0, downVotes: 0, createdAt: now, expiresAt: expiring, warned: false),
                now: now
            ).id!
        }
        let doomed = try await pack(expiring: now.addingTimeInterval(24 * 3600))
        let alive = try await pack(expiring: nil)
        for pack in [doomed, alive] {
            for user in ["writer", "voter"] {
                try await RawSQL.execute(
                    database,
                    sqlite:
                        "INSERT INTO pack_members VALUES (\(pack), '\(user)', '\(user)', 1, '2026-01-01 00:00:00.000')",
                    postgres:
                        "INSERT INTO pack_members VALUES (\(pack), '\(user)', '\(user)', true, \(now.storedMilliseconds))"
                )
            }
        }
        for index in 0..<45 {
            let post = try await database.createPost(
                pack: index % 3 == 0 ? alive : doomed, author: "writer", title: "t", body: "", tags: [], at: nil,
                admit: {}, now: now
            ).post
            _ = try await database.vote(post.id!, voter: "voter", value: 1, at: nil, now: now)
        }
        // User packs live at most 48 hours.
        let later = now.addingTimeInterval(48 * 3600 + 1)
        var steps: [SweepStep] = []
        while true {
            let step = try await database.sweepExpiredStep(now: later, batch: 20)
            if step.isEmpty { break }
            steps.append(step)
        }
        #expect(steps == [.init(posts: 20, packs: 0), .init(posts: 10, packs: 1)])
        var left: [Int] = []
        for table in ["posts", "votes", "pack_members", "packs"] {
            left.append(try await RawSQL.count(database, table))
        }
        #expect(left == [15, 15, 3, 1])
        if database is SQLiteGeoStore { #expect(try await RawSQL.count(database, "packs_rtree") == 1) }
    }
}
