import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// A pin as its owner and other viewers see it, with its category and colour for this viewer.
struct PinView: ResponseEncodable, Sendable {
    var id: String
    /// The owner; absent for a stranger's pin whose owner asked not to be named to strangers.
    var userId: String?
    var latitude: Double
    var longitude: Double
    var placeName: String
    var placeId: Int64?
    var countryCode: String?
    /// The state, province or other first-level division, from the place or the nearest one.
    var region: String?
    var note: String?
    var visitedOn: String?
    var photoCount: Int
    var category: PinCategory
    var color: String
    var createdAt: Date
    var updatedAt: Date

    init(_ pin: PinRecord, category: PinCategory, scheme: ColorScheme, photoCount: Int, named: Bool = true) {
        let id = pin.id ?? 0
        self.id = String(id)
        self.userId = named ? pin.userId : nil
        self.latitude = pin.latitude
        self.longitude = pin.longitude
        self.placeName = pin.placeName
        self.placeId = pin.placeId
        self.countryCode = pin.countryCode
        self.region = pin.region
        self.note = pin.note
        self.visitedOn = pin.visitedOn
        self.photoCount = photoCount
        self.category = category
        self.color = scheme.color(of: category, pin: id)
        self.createdAt = pin.createdAt
        self.updatedAt = pin.updatedAt
    }
}

/// A gazetteer place, as search results and who-visited answers show it.
struct PlaceView: ResponseEncodable, Sendable {
    var id: Int64
    var name: String
    var countryCode: String
    /// The state, province or other first-level division; absent for some small countries.
    var region: String?
    var latitude: Double
    var longitude: Double
    var population: Int
    /// The name the query matched (an alternate name such as "München" for Munich).
    var matchedName: String?

    init(_ place: PlaceRecord, matchedName: String? = nil) {
        self.id = place.id
        self.name = place.name
        self.countryCode = place.countryCode
        self.region = place.region
        self.latitude = place.latitude
        self.longitude = place.longitude
        self.population = place.population
        self.matchedName = matchedName
    }
}
