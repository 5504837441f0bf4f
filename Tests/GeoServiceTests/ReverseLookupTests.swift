import Foundation
import Testing

@testable import GeoService

/// What the nearest place gives a pin made from coordinates alone, by distance.
@Suite struct ReverseLookupTests {
    let village = PlaceRecord(
        id: 1, name: "Kleinmoos", asciiName: "Kleinmoos", countryCode: "DE", region: "Bavaria", latitude: 47.55,
        longitude: 12.05, population: 980)

    @Test func aNearbyPlaceGivesItsNameCountryAndRegion() {
        #expect(
            ReverseLookup.naming(latitude: 47.56, longitude: 12.07, nearest: village)
                == ReverseLookup.Naming(name: "Kleinmoos", countryCode: "DE", region: "Bavaria"))
    }

    @Test func aFartherPlaceGivesOnlyItsCountryAndRegion() {
        // about 55 km north
        #expect(
            ReverseLookup.naming(latitude: 48.05, longitude: 12.05, nearest: village)
                == ReverseLookup.Naming(name: nil, countryCode: "DE", region: "Bavaria"))
    }

    @Test func noPlaceWithinReachGivesNothing() {
        #expect(ReverseLookup.naming(latitude: 40, longitude: -30, nearest: nil) == ReverseLookup.Naming())
        #expect(ReverseLookup.naming(latitude: 49.5, longitude: 12.05, nearest: village) == ReverseLookup.Naming())
    }
}
