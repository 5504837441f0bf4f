import Foundation
import Logging
import PlatformKit
import PostgresNIO
import TestSupport
import Testing

@testable import GeoService

/// What differs between SQLite and PostgreSQL, checked to give the same answers: the map's boxes, cells and users'
/// pins, pack discovery, place search; the invariants several replicas keep when they write at once; and the
/// spatial index PostgreSQL's map and discovery read through.
@Suite struct GeoEnginesTests {
    static func pin(_ user: String, _ latitude: Double, _ longitude: Double) -> PinRecord {
        PinRecord(
            id: nil, userId: user, latitude: latitude, longitude: longitude, placeName: "p\(Int(latitude))",
            placeId: nil, countryCode: nil, note: nil, visitedOn: nil, createdAt: Date(), updatedAt: Date())
    }

    static func pack(
        _ alpha: String, _ latitude: Double, _ longitude: Double, now: Date, official: Bool = false,
        expiresAt: Date? = nil
    ) -> PackRecord {
        PackRecord(
            id: nil, name: "P", latitude: latitude, longitude: longitude, radiusMeters: 1_000, tags: "[]",
            color: "#000000", icon: "x", locked: false, alphaId: alpha, official: official, memberCount: 0,
            postCount: 0, upVotes: 0, downVotes: 0, createdAt: now,
            expiresAt: official ? nil : expiresAt ?? now.addingTimeInterval(PackLifetime.base), warned: false)
    }

    @Test(arguments: propertySeeds()) func mapsClustersAndPackDiscoveryAreTheSameOnBothEngines(seed: UInt64)
        async throws
    {
        try await withGeoStore(.sqlite) { sqlite in
            try await withGeoStore(.postgres) { postgres in
                // given: the same pins and packs written to both, poles, antimeridian and cell edges included
                let now = Date()
                var generator = SplitMix64(seed: seed)
                var pins: [(String, Double, Double)] = [
                    ("u0", 90, 180), ("u1", -90, -180), ("u2", 0, 180), ("u3", 0, -180), ("u4", 45, 22.5),
                    ("u5", -0.000001, 179.9999999), ("u6", 11.25, -168.75),
                ]
                for index in 0..<400 {
                    let band = index % 3 == 0
                    pins.append(
                        (
                            "u\(index % 9)",
                            band
                                ? .random(in: -10...10, using: &generator) : .random(in: -90...90, using: &generator),
                            band
                                ? .random(in: 170...180, using: &generator)
                                : .random(in: -180...180, using: &generator)
                        ))
                }
                var created: [PinRecord] = []
                for (user, latitude, longitude) in pins {
                    let a = try await sqlite.createPin(Self.pin(user, latitude, longitude))
                    let b = try await postgres.createPin(Self.pin(user, latitude, longitude))
                    #expect(a.pin.id == b.pin.id && a.created == b.created)
                    if a.created { created.append(a.pin) }
                }
                // (the random pins; the edge pins stay)
                for pin in created.suffix(30) {
                    try await sqlite.deletePin(pin.id!, of: pin.userId)
                    try await postgres.deletePin(pin.id!, of: pin.userId)
                }
                for pin in created.dropLast(30).suffix(30) {
                    _ = try await sqlite.changePin(pin.id!, of: pin.userId) { $0.longitude = -$0.longitude }
                    _ = try await postgres.changePin(pin.id!, of: pin.userId) { $0.longitude = -$0.longitude }
                }
                for index in 0..<60 {
                    let latitude = Double.random(in: -2...2, using: &generator)
                    let longitude = Double.random(in: 178...180, using: &generator) * (index % 2 == 0 ? 1 : -1)
                    for store in [sqlite, postgres] {
                        let pack = try await store.createPack(
                            Self.pack("a\(index)", latitude, longitude, now: now.addingTimeInterval(-120)),
                            now: now.addingTimeInterval(-120))
                        // some closed: gone from discovery at once
                        if index % 5 == 0 {
                            try await store.closePack(pack.id!, by: "a\(index)", isAdmin: false, now: now)
                        }
                    }
                }
                let boxes = [
                    BoundingBox(west: -180, south: -90, east: 180, north: 90),
                    BoundingBox(west: 170, south: -5, east: -170, north: 5),  // across the antimeridian
                    BoundingBox(west: 0, south: 0, east: 45, north: 45),  // edges on cell bounds
                    BoundingBox.around(latitude: 0, longitude: 180, radius: 150_000),
                ]
                for box in boxes {
                    // then: the same pins in every box
                    let a = try await sqlite.points(in: box, limit: 10_000).sorted { $0.id < $1.id }
                    let b = try await postgres.points(in: box, limit: 10_000).sorted { $0.id < $1.id }
                    #expect(a == b, "\(box)")
                    #expect(!a.isEmpty)
                    // the same users' pins, in the same order
                    let users = ["u5", "u2", "u7", "u2"]
                    let mine = try await sqlite.readMap { try await $0.points(of: users, in: box, limit: 25) }
                    #expect(try await postgres.readMap { try await $0.points(of: users, in: box, limit: 25) } == mine)
                    // the same clusters, to the bit
                    for zoom in 0...MapGrid.maximumClusterZoom {
                        let grid = MapGrid.clustering(zoom: zoom, box: box)
                        let cells = try await sqlite.cells(grid, in: box)
                        #expect(try await postgres.cells(grid, in: box) == cells, "zoom \(zoom) in \(box)")
                    }
                    // the same packs found, expired ones left out
                    let packs = try await sqlite.packs(in: box, now: now).compactMap(\.id).sorted()
                    #expect(try await postgres.packs(in: box, now: now).compactMap(\.id).sorted() == packs)
                }
            }
        }
    }

    @Test func placeSearchAnswersTheSameOnBothEngines() async throws {
        let url = URL(fileURLWithPath: try TestGazetteer.path())
        try await withGeoStore(.sqlite, gazetteer: url) { sqlite in
            try await withGeoStore(.postgres, gazetteer: url) { postgres in
                for query in ["springfield", "san fran", "paris", "sao paulo", "new york", "st peters", "x"] {
                    let folded = PlaceMatching.fold(query)
                    let a = try await sqlite.searchPlaces(folded: folded, limit: 8)
                    let b = try await postgres.searchPlaces(folded: folded, limit: 8)
                    #expect(b.map(\.place.id) == a.map(\.place.id), "\(query)")
                    #expect(b.map(\.quality) == a.map(\.quality), "\(query)")
                    #expect(b.map(\.matchedName) == a.map(\.matchedName), "\(query)")
                }
                // typos: the same best guess
                for query in ["sprngfield", "londn", "amsterdm"] {
                    let folded = PlaceMatching.fold(query)
                    let a = try await sqlite.searchPlaces(folded: folded, limit: 3)
                    let b = try await postgres.searchPlaces(folded: folded, limit: 3)
                    #expect(!a.isEmpty && b.first?.place.id == a.first?.place.id, "\(query)")
                }
                for (latitude, longitude) in [(52.52, 13.40), (-33.87, 151.21), (64.1, -179.9), (-60.0, -140.0)] {
                    let a = try await sqlite.nearestPlace(latitude: latitude, longitude: longitude)
                    #expect(try await postgres.nearestPlace(latitude: latitude, longitude: longitude) == a)
                }
            }
        }
    }

    /// Two replicas writing at once keep what SQLite's single writer kept: one pin per user per place, each
    /// expiring pack warned once, each expired post taken off its pack's counters once.
    @Test func replicasWritingAtOnceKeepTheInvariants() async throws {
        try await withGeoStores(.postgres, replicas: 2) { replicas in
            // given
            let now = Date()
            // when: the same pin saved eight times at once through both replicas
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask { try await replicas[index % 2].createPin(Self.pin("ann", 48.85, 2.35)).created }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // then
            #expect(results.count { $0 } == 1)
            #expect(try await RawSQL.count(replicas[0], "pins") == 1)

            // given: thirty packs about to expire, and an official pack with forty posts past their lifetime
            for index in 0..<30 {
                _ = try await replicas[index % 2].createPack(Self.pack("alpha\(index)", 0, 0, now: now), now: now)
            }
            let official = try await replicas[0].createPack(
                Self.pack("admin", 1, 1, now: now, official: true), now: now)
            for _ in 0..<40 {
                _ = try await replicas[1].createPost(
                    pack: official.id!, author: "admin", title: "t", body: "", tags: [], at: nil, admit: {}, now: now)
            }
            // when: both replicas' pack jobs run at once
            let later = now.addingTimeInterval(PackLifetime.base - 600)
            let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for replica in replicas {
                    group.addTask {
                        var warned: [Int64] = []
                        while true {
                            let claimed = try await replica.claimExpiryWarnings(now: later, limit: 4)
                            if claimed.isEmpty { break }
                            warned += claimed.compactMap(\.pack.id)
                        }
                        return warned
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            let swept = try await withThrowingTaskGroup(of: Int.self) { group in
                for replica in replicas {
                    group.addTask {
                        var total = 0
                        while true {
                            let posts = try await replica.sweepExpiredOfficialPostsStep(
                                now: later.addingTimeInterval(3_600), batch: 3)
                            if posts == 0 { break }
                            total += posts
                        }
                        return total
                    }
                }
                return try await group.reduce(0, +)
            }
            // then: every pack warned once, every post swept once, the counters right
            #expect(claims.count == 30)
            #expect(Set(claims).count == 30)
            #expect(swept == 40)
            #expect(try await RawSQL.count(replicas[0], "posts") == 0)
            let pack = try await replicas[1].livePack(official.id!, now: later)
            #expect(pack.postCount == 0)
        }
    }

    /// The map's box, discovery's box and the nearest place read through their GiST indexes (sequential scans
    /// switched off, so the plan says whether the index can answer the query at all).
    @Test func spatialReadsUseTheirIndexes() async throws {
        try await withGeoStore(.postgres) { store in
            let postgres = try #require(store as? PostgresGeoStore)
            let plans = try await postgres.write { session in
                try await session.execute("SET LOCAL enable_seqscan = off")
                var plans: [String] = []
                for query: PostgresQuery in [
                    """
                    EXPLAIN SELECT id, user_id, latitude, longitude, place_name FROM pins
                    WHERE point(longitude, latitude) <@ box(point(\(-10.0), \(-5.0)), point(\(10.0), \(5.0))) LIMIT \(501)
                    """,
                    """
                    EXPLAIN SELECT pk.id FROM packs pk
                    WHERE point(pk.longitude, pk.latitude) <@ box(point(\(-10.0), \(-5.0)), point(\(10.0), \(5.0)))
                        AND (pk.expires_at IS NULL OR pk.expires_at > \(Int64(0)))
                    """,
                    """
                    EXPLAIN SELECT pl.id FROM places pl
                    WHERE point(pl.longitude, pl.latitude) <@ box(point(\(-10.0), \(-5.0)), point(\(10.0), \(5.0)))
                    """,
                ] {
                    plans.append(
                        try await session.rows(query).map { try $0.decode(String.self) }.joined(separator: "\n"))
                }
                return plans
            }
            #expect(plans[0].contains("pins_spatial"), "\(plans[0])")
            #expect(plans[1].contains("packs_spatial"), "\(plans[1])")
            #expect(plans[2].contains("places_spatial"), "\(plans[2])")
        }
    }
}
