import Foundation
import PlatformKit
import TestSupport
import Testing

/// Getaway's summary of where I have been: countries and cities with counts and first and last visits, and GeoJSON.
@Suite struct GeoVisitedTests {
    @Test func theSummaryCountsMyCountriesAndCitiesWithFirstAndLastVisits() async throws {
        try await GeoWorld.run(gazetteer: true) { world in
            let ann = world.ann
            let lisbon = try #require(
                try await world.api.get(GeoPaths.places + "?query=lisboa", token: ann.accessToken)
                    .decode(WireItems<WirePlace>.self).items.first)
            func pin(_ body: GeoWorld.NewPin) async throws {
                let response = try await world.api.post(GeoPaths.pins, token: ann.accessToken, json: body)
                #expect(response.status == 201, "\(response.text)")
            }
            try await pin(GeoWorld.NewPin(placeId: lisbon.id, visitedOn: "2023-05-01"))
            try await pin(.init(latitude: 41.1579, longitude: -8.6291, placeName: "Porto", visitedOn: "2022-03-04"))
            try await pin(.init(latitude: 41.1496, longitude: -8.6109, placeName: "porto", visitedOn: "2025-06-01"))
            try await pin(.init(latitude: 38.7117, longitude: -9.1300, placeName: "Alfama", visitedOn: "2024-01-02"))
            // no visit date given: the day it was pinned
            try await pin(.init(latitude: 48.8584, longitude: 2.2945, placeName: "Eiffel Tower"))
            let today = LocalDay(world.stack.clock.now, in: .gmt).description
            // someone else's pins are not mine
            try await world.pin(world.bob, 35.6762, 139.6503, "Tokyo")

            let summary = try await world.api.get(GeoPaths.visited + "/summary", token: ann.accessToken)
            #expect(summary.status == 200, "\(summary.text)")
            let visited = try summary.decode(WireVisitedSummary.self)
            #expect(visited.pinCount == 5)
            #expect(visited.countryCount == 2)
            #expect(visited.cityCount == 4)
            let countries = visited.countries.map {
                "\($0.countryCode) \($0.cityCount) cities \($0.pinCount) pins \($0.firstVisit)...\($0.lastVisit)"
            }
            #expect(
                countries == ["PT 3 cities 4 pins 2022-03-04...2025-06-01", "FR 1 cities 1 pins \(today)...\(today)"])
            #expect(visited.cities.map(\.name) == ["Porto", "Alfama", "Eiffel Tower", "Lisbon"])
            #expect(visited.cities.first?.pinCount == 2)
            #expect(visited.cities.first?.firstVisit == "2022-03-04")
            #expect(visited.cities.first?.lastVisit == "2025-06-01")
            #expect(visited.cities.last?.placeId == lisbon.id)
            // GeoJSON: a Feature per country, its visited cities as a MultiPoint, longitude first
            #expect(visited.geojson.type == "FeatureCollection")
            #expect(visited.geojson.features.map(\.id) == ["PT", "FR"])
            let portugal = try #require(visited.geojson.features.first)
            #expect(portugal.geometry.type == "MultiPoint")
            #expect(portugal.geometry.coordinates.count == 3)
            #expect(portugal.geometry.coordinates.first == [-8.6291, 41.1579])
            #expect(portugal.properties == visited.countries.first)
            // bob's summary has only his own pin
            let bobs = try await world.api.get(GeoPaths.visited + "/summary", token: world.bob.accessToken)
                .decode(WireVisitedSummary.self)
            #expect(bobs.countries.map(\.countryCode) == ["JP"])
            // nobody without pins: an empty summary
            let cats = try await world.api.get(GeoPaths.visited + "/summary", token: world.cat.accessToken)
                .decode(WireVisitedSummary.self)
            #expect(cats.pinCount == 0 && cats.countries.isEmpty && cats.geojson.features.isEmpty)
        }
    }
}
