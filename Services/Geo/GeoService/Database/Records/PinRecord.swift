import Foundation
import GRDB
import ServiceKit

/// A row of `pins`: one visited place of one user.
struct PinRecord: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "pins"

    enum Columns {
        static let id = Column("id")
        static let userID = Column("user_id")
    }

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
