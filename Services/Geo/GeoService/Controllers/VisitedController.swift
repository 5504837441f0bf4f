import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Getaway's "where I have been": my visited countries and cities, from my pins.
struct VisitedController {
    let database: any GeoStore

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.visited + "/summary"), use: summary)
    }

    /// Counts, first and last visit per country and city, and the countries as a GeoJSON FeatureCollection.
    @Sendable func summary(_ request: Request, context: AuthenticatedContext) async throws -> VisitedSummaryView {
        VisitedSummaryView(VisitedSummary(try await database.visitedPins(of: context.user.userID)))
    }
}

/// The wire form of ``VisitedSummary``.
struct VisitedSummaryView: ResponseEncodable, Sendable {
    struct City: Encodable, Sendable {
        var placeId: Int64?
        var name: String
        var countryCode: String?
        var pinCount: Int
        var firstVisit: String
        var lastVisit: String

        enum CodingKeys: String, CodingKey { case placeId, name, countryCode, pinCount, firstVisit, lastVisit }

        // A city without a gazetteer place or country says so with null, as the document promises.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(placeId, forKey: .placeId)
            try container.encode(name, forKey: .name)
            try container.encode(countryCode, forKey: .countryCode)
            try container.encode(pinCount, forKey: .pinCount)
            try container.encode(firstVisit, forKey: .firstVisit)
            try container.encode(lastVisit, forKey: .lastVisit)
        }
    }

    struct Country: Encodable, Sendable {
        var countryCode: String
        var cityCount: Int
        var pinCount: Int
        var firstVisit: String
        var lastVisit: String
    }

    /// RFC 7946: one Feature per country, a MultiPoint of its visited cities (longitude first).
    struct Countries: Encodable, Sendable {
        struct Feature: Encodable, Sendable {
            struct Geometry: Encodable, Sendable {
                var type = "MultiPoint"
                var coordinates: [[Double]]
            }
            var type = "Feature"
            var id: String
            var geometry: Geometry
            var properties: Country
        }
        var type = "FeatureCollection"
        var features: [Feature]
    }

    var pinCount: Int
    var countryCount: Int
    var cityCount: Int
    var countries: [Country]
    var cities: [City]
    var geojson: Countries

    init(_ summary: VisitedSummary) {
        pinCount = summary.pinCount
        countryCount = summary.countries.count
        cityCount = summary.cities.count
        countries = summary.countries.map {
            Country(
                countryCode: $0.countryCode, cityCount: $0.cityCount, pinCount: $0.visits.pinCount,
                firstVisit: $0.visits.firstVisit, lastVisit: $0.visits.lastVisit)
        }
        cities = summary.cities.map {
            City(
                placeId: $0.placeId, name: $0.name, countryCode: $0.countryCode,
                pinCount: $0.visits.pinCount, firstVisit: $0.visits.firstVisit, lastVisit: $0.visits.lastVisit)
        }
        geojson = Countries(
            features: zip(summary.countries, countries).map { country, properties in
                .init(id: country.countryCode, geometry: .init(coordinates: country.points), properties: properties)
            })
    }
}
