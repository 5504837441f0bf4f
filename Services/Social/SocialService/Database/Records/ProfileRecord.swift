import Foundation
import GRDB
import ServiceKit

/// A row of `profiles`: the identity service's profile basics, copied.
struct ProfileRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "profiles"
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?
    var fetchedAt: Date

    enum Columns {
        static let userId = Column("user_id")
        static let username = Column("username")
        static let displayName = Column("display_name")
    }
}
