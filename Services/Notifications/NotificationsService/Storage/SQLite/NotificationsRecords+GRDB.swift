import Foundation
import GRDB
import ServiceKit

// The records' rows in SQLite: what GRDB needs to read and write them.

extension DeviceRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "devices"

    enum Columns {
        static let token = Column("token")
        static let userId = Column("user_id")
        static let sessionId = Column("session_id")
        static let createdAt = Column("created_at")
    }
}

extension PreferencesRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "preferences"
}

extension NotificationRecord: ServiceTable, PersistableRecord {
    static let databaseTableName = "notifications"

    enum Columns {
        static let number = Column("number")
        static let id = Column("id")
        static let recipientId = Column("recipient_id")
        static let kind = Column("kind")
        static let text = Column("text")
        static let link = Column("link")
        static let producer = Column("producer")
        static let idempotencyKey = Column("idempotency_key")
        static let createdAt = Column("created_at")
        static let readAt = Column("read_at")
    }

    /// The columns ``init(row:)`` reads, in its order: every fetch selects exactly these, by SQL (``selectList``)
    /// or through the query interface (`databaseSelection`).
    static let selectedColumns = [
        Columns.number, Columns.id, Columns.recipientId, Columns.kind, Columns.text, Columns.link, Columns.producer,
        Columns.idempotencyKey, Columns.createdAt, Columns.readAt,
    ]
    static var databaseSelection: [any SQLSelectable] { selectedColumns }
    static let selectList = selectedColumns.map(\.name).joined(separator: ", ")

    /// Reads the columns by position: the inbox decodes a page of these on every open. By name, each value was a
    /// hash lookup (3 µs of the inbox's 100 in a profile); the `Codable` path through ``SnakeCaseColumns`` costs
    /// several times more.
    init(row: Row) throws {
        self.init(
            number: try row.decode(atIndex: 0), id: try row.decode(atIndex: 1), recipientId: try row.decode(atIndex: 2),
            kind: try row.decode(atIndex: 3), text: try row.decode(atIndex: 4), link: try row.decode(atIndex: 5),
            producer: try row.decode(atIndex: 6), idempotencyKey: try row.decode(atIndex: 7),
            createdAt: try row.decodeDate(atIndex: 8), readAt: try row.decodeDateIfPresent(atIndex: 9))
    }
}
