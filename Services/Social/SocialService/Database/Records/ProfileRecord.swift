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
    /// The columns ``init(row:)`` reads, in its order: every fetch selects exactly these, by SQL (``selectList``)
    /// or through the query interface (`databaseSelection`).
    static let selectedColumns = [
        Columns.userId, Columns.username, Columns.displayName, Columns.avatarUrl, Columns.fetchedAt,
    ]
    static var databaseSelection: [any SQLSelectable] { selectedColumns }
    static let selectList = selectedColumns.map(\.name).joined(separator: ", ")

    /// Reads the columns by position: every list of people decodes profiles. By name, each value was a hash
    /// lookup; the `Codable` path through ``SnakeCaseColumns`` cost a tenth of the friends page
    /// (docs/architecture.md, "Measured on this machine").
    init(row: Row) throws {
        userId = try row.decode(atIndex: 0)
        username = try row.decode(atIndex: 1)
        displayName = try row.decode(atIndex: 2)
        avatarUrl = try row.decode(atIndex: 3)
        fetchedAt = try row.decodeDate(atIndex: 4)
    }
}
