import Foundation
import GRDB
import ServiceKit

// The records as GRDB reads and writes them: only the SQLite store knows these conformances.

extension FriendRequestRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "friend_requests"

    enum Columns {
        static let id = Column("id")
        static let senderId = Column("sender_id")
        static let recipientId = Column("recipient_id")
        static let status = Column("status")
        static let createdAt = Column("created_at")
    }
}

extension ProfileRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "profiles"

    enum Columns {
        static let userId = Column("user_id")
        static let username = Column("username")
        static let displayName = Column("display_name")
        static let avatarUrl = Column("avatar_url")
        static let fetchedAt = Column("fetched_at")
    }

    /// The columns ``init(row:)`` reads, in its order: every fetch selects exactly these, by SQL (``selectList``)
    /// or through the query interface (`databaseSelection`).
    static let selectedColumns = [
        Columns.userId, Columns.username, Columns.displayName, Columns.avatarUrl, Columns.fetchedAt,
    ]
    static var databaseSelection: [any SQLSelectable] { selectedColumns }
    static let selectList = selectedColumns.map(\.name).joined(separator: ", ")

    /// Reads the columns by position: every list of people decodes profiles. By name, each value was a hash
    /// lookup; the `Codable` path through ``SnakeCaseColumns`` cost a tenth of the friends page
    /// (docs/architecture.md, "Why the hot paths look this way").
    init(row: Row) throws {
        self.init(
            userId: try row.decode(atIndex: 0), username: try row.decode(atIndex: 1),
            displayName: try row.decode(atIndex: 2), avatarUrl: try row.decode(atIndex: 3),
            fetchedAt: try row.decodeDate(atIndex: 4))
    }
}
