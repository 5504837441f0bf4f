import Configuration
import Foundation
import Logging
import PlatformKit
import TestSupport
import Testing

@testable import GeoService

/// The gazetteer a setting names: loaded at start in place of the bundled sample, replaced when the file changes,
/// kept when it does not; on either database.
@Suite struct GazetteerTests {
    /// `GAZETTEER_FILE` as the executable reads it.
    func configuration(gazetteerFile: String?) throws -> GeoConfiguration {
        var environment = ["DATA_DIR": FileManager.default.temporaryDirectory.path, "INTERNAL_TOKEN": "test"]
        environment["GAZETTEER_FILE"] = gazetteerFile
        return try GeoConfiguration(
            reader: ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment)))
    }

    @Test func withoutTheSettingTheBundledSampleIsLoaded() throws {
        #expect(try configuration(gazetteerFile: nil).gazetteer == GeoResources.gazetteer)
        #expect(try configuration(gazetteerFile: "").gazetteer == GeoResources.gazetteer)
    }

    @Test(arguments: StoreKind.allCases)
    func theFileTheSettingNamesIsLoadedAndReplacedWhenItChanges(_ kind: StoreKind) async throws {
        // given: a small gazetteer named by GAZETTEER_FILE
        let file = try GazetteerFixture.write(GazetteerFixture.villages)
        let gazetteer = try #require(try configuration(gazetteerFile: file.path).gazetteer)
        #expect(gazetteer == file)
        let location = try await kind.freshLocation()
        let logger = Logger(label: "test.geo")
        // when
        let database = try await openGeoStore(location, gazetteer: gazetteer, logger: logger)
        try await withRunning(database) {
            // then: its village is found, typo and all, with its region
            let village = try await database.searchPlaces(folded: "unterbrunn", limit: 5)
            #expect(village.map(\.place.name) == ["Unterbrunn am See"])
            #expect(village.first?.place.region == "Bavaria")
            #expect(try await database.searchPlaces(folded: "kleinmos", limit: 5).map(\.place.id) == [2_900_003])
            #expect(try await RawSQL.count(database, "places") == 4)

            // a start with the same file keeps the places as they are
            try await RawSQL.execute(database, "UPDATE places SET population = 1 WHERE id = 2900001")
            _ = try await openGeoStore(location, gazetteer: gazetteer, logger: logger)
            #expect(try await RawSQL.column(database, "SELECT population FROM places WHERE id = 2900001") == [1])

            // a start with another file replaces them, names and all
            let bigger = try GazetteerFixture.write(
                GazetteerFixture.villages.dropFirst()
                    + [(2_900_005, "Zell", "Zell", "", "AT", "Tyrol", 47.40000, 12.30000, 800)])
            _ = try await openGeoStore(location, gazetteer: bigger, logger: logger)
            #expect(try await RawSQL.count(database, "places") == 4)
            #expect(try await database.searchPlaces(folded: "oberhausl", limit: 5).isEmpty)
            #expect(try await database.searchPlaces(folded: "zell", limit: 5).map(\.place.region) == ["Tyrol"])
            #expect(try await database.place(2_900_001) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFileWithoutPlacesStopsTheStart(_ kind: StoreKind) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gazetteer-\(UUID().uuidString).tsv")
        try Data("not a gazetteer\n".utf8).write(to: file)
        let location = try await kind.freshLocation()
        await #expect(throws: GazetteerError.self) {
            _ = try await openGeoStore(location, gazetteer: file, logger: Logger(label: "test.geo"))
        }
        await #expect(throws: GazetteerError.self) {
            _ = try await openGeoStore(
                location, gazetteer: file.appendingPathExtension("missing"), logger: Logger(label: "test.geo"))
        }
    }

    /// Reverse lookup: the place nearest to a point, with its country and region, within the radius asked.
    @Test(arguments: StoreKind.allCases)
    func theNearestPlaceComesWithItsCountryAndRegion(_ kind: StoreKind) async throws {
        let file = try GazetteerFixture.write(GazetteerFixture.villages)
        try await withGeoStore(kind, gazetteer: file) { database in
            let near = try #require(try await database.nearestPlace(latitude: 47.56, longitude: 12.07))
            #expect(near.name == "Kleinmoos")
            #expect(near.countryCode == "DE")
            #expect(near.region == "Bavaria")
            let cornwall = try await database.nearestPlace(latitude: 50.58, longitude: -4.91)
            #expect(cornwall?.name == "Polzeath" && cornwall?.region == "England")
            #expect(try await database.nearestPlace(latitude: 40, longitude: -30) == nil)
            #expect(try await database.nearestPlace(latitude: 47.56, longitude: 12.07, radius: 100) == nil)
        }
    }
}
