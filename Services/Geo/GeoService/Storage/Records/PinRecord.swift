import Foundation

/// A row of `pins`: one visited place of one user.
struct PinRecord: Codable, Sendable {
    var id: Int64?
    var userId: String
    var latitude: Double
    var longitude: Double
    var placeName: String
    var placeId: Int64?
    var countryCode: String?
    /// The first-level division (state, province) of its place or of the nearest one.
    var region: String?
    var note: String?
    var visitedOn: String?
    var createdAt: Date
    var updatedAt: Date
}
