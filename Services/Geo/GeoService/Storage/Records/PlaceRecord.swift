import Foundation

/// A row of `places`: one city of the gazetteer.
struct PlaceRecord: Codable, Sendable, Equatable {
    var id: Int64
    var name: String
    var asciiName: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var population: Int
}
