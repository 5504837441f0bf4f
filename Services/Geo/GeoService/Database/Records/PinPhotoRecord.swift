import Foundation
import GRDB
import ServiceKit

/// A row of `pin_photos` without its bytes (lists never load them).
struct PinPhotoRecord: Codable, FetchableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "pin_photos"

    enum Columns {
        static let id = Column("id")
        static let pinID = Column("pin_id")
        static let bytes = Column("bytes")
        static let mediaType = Column("media_type")
        static let etag = Column("etag")
        static let byteCount = Column("byte_count")
        static let createdAt = Column("created_at")
    }

    var id: String
    var pinId: Int64
    var mediaType: String
    var etag: String
    var byteCount: Int
    var createdAt: Date
}
