import Foundation

/// A row of `trips`: a named journey of one user (``Trips``). The cover is a photo of one of the owner's pins;
/// deleting that photo clears it.
struct TripRecord: Codable, Sendable {
    var id: Int64?
    var userId: String
    var name: String
    var startsOn: String
    var endsOn: String
    /// ``Trips/Visibility``'s raw value.
    var visibility: String
    var coverPhotoId: String?
    /// The pin of the cover photo (meaningful only while `coverPhotoId` is set).
    var coverPinId: Int64?
    var createdAt: Date
    var updatedAt: Date
}
