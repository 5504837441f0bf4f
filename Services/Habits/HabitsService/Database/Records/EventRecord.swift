import Foundation
import GRDB

/// A row of `events`, with its habit's title when read for a list.
struct EventRecord: HabitsTable {
    static let databaseTableName = "events"

    enum Columns {
        static let id = Column("id")
        static let habitId = Column("habit_id")
        static let userId = Column("user_id")
        static let day = Column("day")
        static let comment = Column("comment")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let photoType = Column("photo_type")
        static let idempotencyKey = Column("idempotency_key")
        static let createdAt = Column("created_at")
        static let updatedAt = Column("updated_at")
    }

    var id: Int64?
    var habitId: String
    var userId: String
    var day: String
    var comment: String?
    var latitude: Double?
    var longitude: Double?
    var photoType: String?
    var idempotencyKey: String?
    var createdAt: Date
    var updatedAt: Date
}
