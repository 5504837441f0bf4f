import Foundation
import GRDB
import ServiceKit

/// An event joined with its habit's title, for history lists.
struct EventListRecord: Codable, FetchableRecord, EncodableRecord, SnakeCaseColumns, Sendable {
    enum Columns {
        static let id = Column("id")
        static let habitId = Column("habit_id")
        static let habitTitle = Column("habit_title")
        static let userId = Column("user_id")
        static let day = Column("day")
        static let comment = Column("comment")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let photoType = Column("photo_type")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64
    var habitId: String
    var habitTitle: String
    var userId: String
    var day: String
    var comment: String?
    var latitude: Double?
    var longitude: Double?
    var photoType: String?
    var createdAt: Date
    var updatedAt: Date
}
