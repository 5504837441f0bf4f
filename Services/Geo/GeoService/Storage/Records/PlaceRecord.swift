import Foundation

/// A row of `places`: one populated place of the gazetteer.
struct PlaceRecord: Codable, Sendable, Equatable {
    var id: Int64
    var name: String
    var asciiName: String
    var countryCode: String
    /// The first-level division (state, province, Land) it is in; none for some small countries.
    var region: String?
    var latitude: Double
    var longitude: Double
    var population: Int
}
