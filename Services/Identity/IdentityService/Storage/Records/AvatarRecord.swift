import Foundation

/// A row of `avatars`: the profile picture, kept apart so user lookups never load image bytes.
struct AvatarRecord: Codable, Sendable {
    var userId: String
    var mediaType: String
    var etag: String
    var bytes: Data
}
