import Foundation
import PlatformKit
import Testing

@testable import GeoService

@Suite struct GeometryTests {
    @Test func haversineMatchesKnownDistances() {
        // Paris - London is about 344 km; a degree of latitude about 111.2 km
        let parisLondon = Geodesy.distance(48.8566, 2.3522, 51.5074, -0.1278)
        #expect(abs(parisLondon - 343_500) < 1_500)
        #expect(abs(Geodesy.distance(0, 0, 1, 0) - 111_195) < 10)
        #expect(Geodesy.distance(10, 179.9, 10, -179.9) < 25_000)
    }

    @Test func boxesParseValidateAndCrossTheAntimeridian() throws {
        let box = try BoundingBox.parse("170,-10,-170,10")
        #expect(box.longitudeRanges == [170...180, -180...(-170)])
        #expect(box.contains(latitude: 0, longitude: 179))
        #expect(box.contains(latitude: 0, longitude: -175))
        #expect(!box.contains(latitude: 0, longitude: 0))
        for bad in ["nan,0,1,1", "0,0,1,91", "0,0,181,1", "0,5,1,4", "1,2,3", "", "inf,0,1,1"] {
            #expect(throws: Problem.self) { try BoundingBox.parse(bad) }
        }
        #expect(throws: Problem.self) { try BoundingBox.parse(nil) }
    }

    @Test func aCircleNearTheAntimeridianWrapsAround() {
        let box = BoundingBox.around(latitude: 0, longitude: 179.99, radius: 10_000)
        #expect(box.west > box.east)
        #expect(box.contains(latitude: 0, longitude: -179.95))
        let polar = BoundingBox.around(latitude: 89.99, longitude: 0, radius: 10_000)
        #expect(polar.west == -180 && polar.east == 180)
    }

    @Test func gridCellsCoverTheWorldAndClampItsEdges() {
        let grid = MapGrid(zoom: 0)
        #expect(grid.columns == 8 && grid.rows == 4)
        #expect(grid.cell(latitude: -90, longitude: -180) == MapGrid.Cell(x: 0, y: 0))
        #expect(grid.cell(latitude: 90, longitude: 180) == MapGrid.Cell(x: 7, y: 3))
        let bounds = grid.bounds(MapGrid.Cell(x: 4, y: 2))
        #expect(bounds == BoundingBox(west: 0, south: 0, east: 45, north: 45))
        #expect(MapGrid(zoom: 40).zoom == MapGrid.maximumClusterZoom)
        let ranges = MapGrid(zoom: 1).cellRanges(BoundingBox(west: 170, south: -10, east: -170, north: 10))
        #expect(ranges.map(\.x) == [15...15, 0...0])
    }
}

@Suite struct PlaceMatchingTests {
    @Test func foldingIgnoresCaseAccentsAndSpacing() {
        #expect(PlaceMatching.fold("  São   Paulo ") == "sao paulo")
        #expect(PlaceMatching.fold("ZÜRICH") == "zurich")
        #expect(PlaceMatching.fold("Kraków") == "krakow")
    }

    @Test func queriesCannotInjectFTSSyntax() {
        #expect(PlaceMatching.prefixQuery("san fran") == #""san"* "fran"*"#)
        #expect(PlaceMatching.prefixQuery(#"" or * near("#) == #""or"* "near"*"#)
        #expect(PlaceMatching.prefixQuery("--") == nil)
        // trigrams are read one by one as FTS5 phrases: letters and digits only
        #expect(PlaceMatching.trigrams(ofWords: #"rome "or" ab"#) == ["rom", "ome"])
    }

    @Test(arguments: [
        ("barcelona", "barcelona", 0), ("barcleona", "barcelona", 1), ("amsterdma", "amsterdam", 1),
        ("lndon", "london", 1), ("kitten", "sitting", 3), ("", "abc", 3),
    ])
    func editDistanceCountsAdjacentSwapsOnce(a: String, b: String, distance: Int) {
        #expect(PlaceMatching.editDistance(a, b) == distance)
    }

    @Test func aTypedPrefixWithATypoStillMatches() {
        #expect(PlaceMatching.typoDistance(query: "barcleo", name: "barcelona") == 2)
        #expect(PlaceMatching.tolerance("rom") == 0)
        #expect(PlaceMatching.tolerance("barcleona") == 2)
    }
}

@Suite struct MapZoomTests {
    @Test func theGridIsNeverFinerThanAboutSixtyFourCellsAcrossTheBox() throws {
        let world = BoundingBox(west: -180, south: -85, east: 180, north: 85)
        #expect(MapGrid.fittingZoom(world) == 0)
        #expect(MapGrid.clustering(zoom: 12, box: world).zoom == 2)
        let city = BoundingBox(west: 2.2, south: 48.8, east: 2.5, north: 48.9)
        #expect(MapGrid.clustering(zoom: 11, box: city).zoom == 11)
        let across = BoundingBox(west: 170, south: -10, east: -170, north: 10)
        #expect(MapGrid.fittingZoom(across) == 4)
        #expect(try MapController.zoom(nil, box: city) == 10)
        #expect(throws: Problem.self) { try MapController.zoom("23", box: city) }
        #expect(throws: Problem.self) { try MapController.zoom("two", box: city) }
    }

    @Test func myPinsAreClusteredInMemoryOnTheSameGrid() {
        let points =
            (0..<5).map {
                MapPoint(id: Int64($0), userId: $0 < 3 ? "me" : "friend", latitude: 10, longitude: 10, placeName: "x")
            } + [MapPoint(id: 9, userId: "me", latitude: -40, longitude: 100, placeName: "y")]
        let world = BoundingBox(west: -180, south: -85, east: 180, north: 85)
        let map = MapController.personal(points, zoom: 2, box: world, viewer: "me", scheme: ColorScheme())
        #expect(map.clustered)
        let cluster = map.features.first { $0.properties.cluster }
        #expect(cluster?.properties.pointCount == 5)
        #expect(cluster?.properties.ownCount == 3)
        #expect(cluster?.properties.friendCount == 2)
        #expect(map.features.contains { $0.properties.pinId == "9" && $0.properties.color == "#e53935" })
        let zoomedIn = MapController.personal(points, zoom: 16, box: world, viewer: "me", scheme: ColorScheme())
        #expect(!zoomedIn.clustered)
        #expect(zoomedIn.features.count == 6)
    }
}
