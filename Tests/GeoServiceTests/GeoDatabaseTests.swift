import Foundation
import PlatformKit
import Testing

@testable import GeoService

/// The invariants the database keeps: cluster counts follow every insert, move and delete, exactly as the
/// Swift grid computes cells; the gazetteer loads once and ranks matches.
@Suite struct GeoDatabaseTests {
    static func pin(_ user: String, _ latitude: Double, _ longitude: Double) -> PinRecord {
        PinRecord(
            id: nil, userId: user, latitude: latitude, longitude: longitude, placeName: "x", placeId: nil,
            countryCode: nil, note: nil, visitedOn: nil, createdAt: Date(), updatedAt: Date())
    }

    @Test func clusterCellsFollowInsertsMovesAndDeletes() async throws {
        // given
        let database = try GeoDatabase(.inMemory)
        var generator = SystemRandomNumberGenerator()
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

    @Test func theGazetteerLoadsOnceAndRanksExactMatchesThenPopulation() async throws {
        let url = try #require(GeoResources.gazetteer)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("geo-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: file) }
        let database = try GeoDatabase(.file(file.path), gazetteer: url)
        let count = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM places") }
        #expect((count ?? 0) > 30_000)
        // a second start does not load it again
        _ = try GeoDatabase(.file(file.path), gazetteer: url)
        let again = try await database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM places") }
        #expect(again == count)
        let hits = try await database.searchPlaces(folded: "springfield", limit: 5)
        #expect(hits.count > 1)
        #expect(zip(hits, hits.dropFirst()).allSatisfy { $0.place.population >= $1.place.population })
        let near = try await database.nearestPlace(latitude: 52.52, longitude: 13.40)
        #expect(near?.countryCode == "DE")
        #expect(try await database.nearestPlace(latitude: -60, longitude: -140) == nil)
    }
}
