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
        static let avatarUrl = Column("avatar_url")
        static let fetchedAt = Column("fetched_at")
    }
}

extension ProfileRecord {
    /// Reads the columns by name: every list of people decodes profiles, and the `Codable` path through
    /// ``SnakeCaseColumns`` cost a tenth of the friends page (docs/architecture.md, "Measured on this machine").
    init(row: Row) throws {
        userId = try row.decode(forColumn: Columns.userId)
        username = try row.decode(forColumn: Columns.username)
        displayName = try row.decode(forColumn: Columns.displayName)
        avatarUrl = try row.decode(forColumn: Columns.avatarUrl)
        fetchedAt = try row.decodeDate(forColumn: Columns.fetchedAt)
    }
}
