import Foundation
import Logging
import PlatformKit
import TestSupport
import Testing

@testable import GeoService

/// The invariants the store keeps on either database: cluster counts follow every insert, move and delete, exactly as
/// the Swift grid computes cells; the gazetteer loads once and ranks matches.
@Suite struct GeoStoreTests {
    static func pin(_ user: String, _ latitude: Double, _ longitude: Double) -> PinRecord {
        PinRecord(
            id: nil, userId: user, latitude: latitude, longitude: longitude, placeName: "x", placeId: nil,
            countryCode: nil, note: nil, visitedOn: nil, createdAt: Date(), updatedAt: Date())
    }

    @Test(arguments: StoreKind.allCases, propertySeeds())
    func clusterCellsFollowInsertsMovesAndDeletes(_ kind: StoreKind, seed: UInt64) async throws {
        try await withGeoStore(kind) { database in
            try await clusterCellsFollowInsertsMovesAndDeletes(database, seed: seed)
        }
    }

    func clusterCellsFollowInsertsMovesAndDeletes(_ database: any GeoStore, seed: UInt64) async throws {
        // given
        var generator = SplitMix64(seed: seed)
        var pins: [PinRecord] = []
        for index in 0..<300 {
            let latitude = index == 0 ? 90 : Double.random(in: -90...90, using: &generator)
            let longitude = index == 1 ? 180 : Double.random(in: -180...180, using: &generator)
            pins.append(try await database.createPin(Self.pin("u\(index % 7)", latitude, longitude)).pin)
        }
        // when
        for pin in pins.prefix(40) { try await database.deletePin(pin.id!, of: pin.userId) }
        for pin in pins.dropFirst(40).prefix(40) {
            _ = try await database.changePin(pin.id!, of: pin.userId) { $0.latitude = -$0.latitude }
        }
        // then: at every zoom the cells hold what the Swift grid says
        let world = BoundingBox(west: -180, south: -90, east: 180, north: 90)
        let remaining = try await database.points(in: world, limit: 1_000)
        #expect(remaining.count == 260)
        for zoom in 0...MapGrid.maximumClusterZoom {
            let grid = MapGrid(zoom: zoom)
            var expected: [MapGrid.Cell: Int] = [:]
            for point in remaining {
                expected[grid.cell(latitude: point.latitude, longitude: point.longitude), default: 0] += 1
            }
            let cells = try await database.cells(grid, in: world)
            #expect(Dictionary(uniqueKeysWithValues: cells.map { ($0.cell, $0.count) }) == expected, "zoom \(zoom)")
        }
    }

    @Test(arguments: StoreKind.allCases, propertySeeds())
    func somePeoplesPinsInABoxAreExactlyTheirsInsideIt(_ kind: StoreKind, seed: UInt64) async throws {
        try await withGeoStore(kind) { database in
            try await somePeoplesPinsInABoxAreExactlyTheirsInsideIt(database, seed: seed)
        }
    }

    func somePeoplesPinsInABoxAreExactlyTheirsInsideIt(_ database: any GeoStore, seed: UInt64) async throws {
        var generator = SplitMix64(seed: seed)
        // given: five users' pins all over the world, one of them with many pins in one latitude band
        var all: [MapPoint] = []
        for index in 0..<400 {
            let user = "u\(index % 5)"
            let latitude =
                user == "u2" ? Double.random(in: 10...12, using: &generator) : .random(in: -90...90, using: &generator)
            let longitude = Double.random(in: -180...180, using: &generator)
            let (pin, created) = try await database.createPin(Self.pin(user, latitude, longitude))
            try #require(created)  // not taken for the same place as an earlier pin
            all.append(
                MapPoint(
                    id: pin.id!, userId: user, latitude: latitude, longitude: pin.longitude, placeName: pin.placeName))
        }
        let boxes = [
            BoundingBox(west: -180, south: -90, east: 180, north: 90),
            BoundingBox(west: -30, south: 9, east: 60, north: 11),
            BoundingBox(west: 170, south: -40, east: -170, north: 40),  // across the antimeridian
        ]
        for box in boxes {
            // when: users listed twice and out of order, u9 without pins
            let found = try await database.readMap {
                try await $0.points(of: ["u3", "u2", "u0", "u2", "u9"], in: box, limit: 1_000)
            }
            // then: each pin once, by user then latitude, and nothing of u1 or u4 or outside the box
            let expected = all.filter {
                ["u0", "u2", "u3"].contains($0.userId) && box.contains(latitude: $0.latitude, longitude: $0.longitude)
            }
            #expect(found == expected.sorted { ($0.userId, $0.latitude) < ($1.userId, $1.latitude) })
        }
        let world = boxes[0]
        let limited = try await database.readMap { try await $0.points(of: ["u2", "u1"], in: world, limit: 7) }
        #expect(limited.count == 7)
        #expect(try await database.readMap { try await $0.points(of: [], in: world, limit: 7) }.isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func aColourSchemeHoldsTheViewersCategoryAndPinChoicesOnly(_ kind: StoreKind) async throws {
        try await withGeoStore(kind) { database in
            try await aColourSchemeHoldsTheViewersCategoryAndPinChoicesOnly(database)
        }
    }

    func aColourSchemeHoldsTheViewersCategoryAndPinChoicesOnly(_ database: any GeoStore) async throws {
        // given
        let first = try await database.createPin(Self.pin("ann", 1, 1)).pin.id!
        let second = try await database.createPin(Self.pin("bob", 2, 2)).pin.id!
        #expect(try await database.colorScheme(of: "ann") == ColorScheme())
        // when: pin colours without category choices, then categories, then bob's own choices
        try await database.setPinColor(of: "ann", pin: first, color: "#111111")
        try await database.setPinColor(of: "ann", pin: second, color: "#222222")
        let pinsOnly = try await database.colorScheme(of: "ann")
        try await database.setCategoryColors(of: "ann", own: nil, friend: "#333333", other: "#444444")
        try await database.setCategoryColors(of: "bob", own: "#555555", friend: nil, other: nil)
        try await database.setPinColor(of: "bob", pin: first, color: "#666666")
        // then
        #expect(pinsOnly == ColorScheme(pins: [first: "#111111", second: "#222222"]))
        #expect(
            try await database.colorScheme(of: "ann")
                == ColorScheme(friend: "#333333", other: "#444444", pins: [first: "#111111", second: "#222222"]))
        #expect(try await database.colorScheme(of: "bob") == ColorScheme(own: "#555555", pins: [first: "#666666"]))
    }

    /// The shipped gazetteer loads whole: the one test that loads all of it (the others load ``TestGazetteer``).
    @Test func theBundledGazetteerLoadsWhole() async throws {
        let url = try #require(GeoResources.gazetteer)
        let database = try await openGeoStore(
            try await StoreKind.sqlite.freshLocation(), gazetteer: url, logger: Logger(label: "test.geo"))
        try await withRunning(database) {
            #expect(try await RawSQL.count(database, "places") > 30_000)
            try await theGazetteerRanksExactMatchesThenPopulation(database)
        }
    }

    /// On PostgreSQL two replicas start together on an empty database: one loads the gazetteer, the other waits and
    /// finds it loaded (a third start later loads nothing either).
    @Test(arguments: StoreKind.allCases)
    func theGazetteerLoadsOnceAndRanksExactMatchesThenPopulation(_ kind: StoreKind) async throws {
        let url = URL(fileURLWithPath: try TestGazetteer.path())
        let location = try await kind.freshLocation()
        let logger = Logger(label: "test.geo")
        let starts = kind == .sqlite ? 1 : 2
        let stores = try await withThrowingTaskGroup(of: (any GeoStore).self) { group in
            for _ in 0..<starts { group.addTask { try await openGeoStore(location, gazetteer: url, logger: logger) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let database = stores[0]
        try await withRunning(database) {
            let count = try await RawSQL.count(database, "places")
            #expect(count == (try TestGazetteer.placeCount()))
            let names = try await RawSQL.count(database, "place_names")
            // a later start does not load it again
            _ = try await openGeoStore(location, gazetteer: url, logger: logger)
            #expect(try await RawSQL.count(database, "places") == count)
            #expect(try await RawSQL.count(database, "place_names") == names)
            try await theGazetteerRanksExactMatchesThenPopulation(database)
        }
    }

    func theGazetteerRanksExactMatchesThenPopulation(_ database: any GeoStore) async throws {
        let hits = try await database.searchPlaces(folded: "springfield", limit: 5)
        #expect(hits.count > 1)
        #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.place.population >= $1.place.population })
        let near = try await database.nearestPlace(latitude: 52.52, longitude: 13.40)
        #expect(near?.countryCode == "DE")
        #expect(try await database.nearestPlace(latitude: -60, longitude: -140) == nil)
    }
}
