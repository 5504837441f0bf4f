import Foundation
import PlatformKit

/// The countries and cities a traveller has pinned, with how many pins and when they were first and last there.
///
/// A city is the pin's gazetteer place when it has one, else the place name the traveller gave in that country.
/// A visit's day is the pin's `visitedOn`, or the day it was pinned (UTC) when none was given. The gazetteer holds
/// cities, not borders, so a country's geometry is the MultiPoint of its visited cities (the first pin of each);
/// apps colour their own country shapes by `countryCode`. Pins with no country (far from any city) count in the
/// totals and their cities, not in any country.
struct VisitedSummary: Sendable, Equatable {
    struct Visits: Sendable, Equatable {
        var pinCount = 0
        var firstVisit = ""
        var lastVisit = ""

        mutating func add(day: String) {
            merge(Visits(pinCount: 1, firstVisit: day, lastVisit: day))
        }

        mutating func merge(_ other: Visits) {
            pinCount += other.pinCount
            if firstVisit.isEmpty || other.firstVisit < firstVisit { firstVisit = other.firstVisit }
            if lastVisit.isEmpty || other.lastVisit > lastVisit { lastVisit = other.lastVisit }
        }
    }

    struct City: Sendable, Equatable {
        var placeId: Int64?
        var name: String
        var countryCode: String?
        var latitude: Double
        var longitude: Double
        var visits = Visits()
    }

    struct Country: Sendable, Equatable {
        var countryCode: String
        var cityCount = 0
        var visits = Visits()
        /// `[longitude, latitude]` of each visited city, in the order of ``VisitedSummary/cities``.
        var points: [[Double]] = []
    }

    var pinCount: Int
    /// Most pins first, then by name.
    var cities: [City]
    /// Most cities first, then by code.
    var countries: [Country]

    /// One pin as the summary needs it.
    struct Pin: Sendable {
        var latitude: Double
        var longitude: Double
        var placeName: String
        var placeId: Int64?
        var countryCode: String?
        var visitedOn: String?
        var createdAt: Date
    }

    init(_ pins: [Pin]) {
        var cities: [String: City] = [:]
        var order: [String] = []
        for pin in pins {
            let key = pin.placeId.map { "place:\($0)" } ?? "name:\(pin.countryCode ?? "")|\(pin.placeName.lowercased())"
            if cities[key] == nil {
                order.append(key)
                cities[key] = City(
                    placeId: pin.placeId, name: pin.placeName, countryCode: pin.countryCode, latitude: pin.latitude,
                    longitude: pin.longitude)
            }
            cities[key]?.visits.add(day: pin.visitedOn ?? LocalDay(pin.createdAt, in: .gmt).description)
        }
        let sortedCities = order.compactMap { cities[$0] }.sorted {
            ($1.visits.pinCount, $0.name, $0.placeId ?? 0) < ($0.visits.pinCount, $1.name, $1.placeId ?? 0)
        }
        var countries: [String: Country] = [:]
        for city in sortedCities {
            guard let code = city.countryCode else { continue }
            var country = countries[code] ?? Country(countryCode: code)
            country.cityCount += 1
            country.points.append([city.longitude, city.latitude])
            country.visits.merge(city.visits)
            countries[code] = country
        }
        self.pinCount = pins.count
        self.cities = sortedCities
        self.countries = countries.values.sorted {
            ($1.cityCount, $0.countryCode) < ($0.cityCount, $1.countryCode)
        }
    }
}
