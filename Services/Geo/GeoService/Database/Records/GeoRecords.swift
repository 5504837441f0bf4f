import Foundation
import GRDB
import ServiceKit

/// A row of `pins`: one visited place of one user.
struct PinRow: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "pins"
    var id: Int64?
    var userId: String
    var latitude: Double
    var longitude: Double
    var placeName: String
    var placeId: Int64?
    var countryCode: String?
    var note: String?
    var visitedOn: String?
    var createdAt: Date
    var updatedAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A row of `pin_photos` without its bytes (lists never load them).
struct PhotoInfo: Codable, FetchableRecord, SnakeCaseColumns, Sendable {
    var id: String
    var pinId: Int64
    var mediaType: String
    var etag: String
    var byteCount: Int
    var createdAt: Date
}

/// A photo's bytes, for serving.
struct PhotoContent: Sendable {
    var bytes: Data
    var mediaType: String
    var etag: String
}

/// A row of `places`: one city of the gazetteer.
struct PlaceRow: Codable, FetchableRecord, SnakeCaseColumns, Sendable, Equatable {
    var id: Int64
    var name: String
    var asciiName: String
    var countryCode: String
    var latitude: Double
    var longitude: Double
    var population: Int
}

/// One point on the map as the map query reads it: decoded by column, no record machinery on the hot path.
struct MapPoint: Sendable, Equatable {
    var id: Int64
    var userId: String
    var latitude: Double
    var longitude: Double
    var placeName: String
}

/// One non-empty grid cell: how many pins and their centroid.
struct CellCount: Sendable, Equatable {
    var cell: MapGrid.Cell
    var count: Int
    var sumLatitude: Double
    var sumLongitude: Double
}
