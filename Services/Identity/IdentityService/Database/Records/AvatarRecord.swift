import Foundation
import GRDB
import ServiceKit

/// A row of `avatars`: the profile picture, kept apart so user lookups never load image bytes.
struct AvatarRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "avatars"

    var userId: String
    var mediaType: String
    var etag: String
    var bytes: Data

    enum Columns {
        static let userId = Column("user_id")
    }
}
