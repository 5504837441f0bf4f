import Foundation

/// A row of `pin_photos` without its bytes (lists never load them).
struct PinPhotoRecord: Codable, Sendable {
    var id: String
    var pinId: Int64
    var mediaType: String
    var etag: String
    var byteCount: Int
    var createdAt: Date
}
