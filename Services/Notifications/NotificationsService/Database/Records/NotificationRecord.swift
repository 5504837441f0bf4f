import Foundation
import GRDB
import ServiceKit

/// A row of `notifications`: one notice in one recipient's inbox.
struct NotificationRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "notifications"
    var number: Int64?
    var id: String
    var recipientId: String
    var kind: String
    var text: String
    var link: String
    var producer: String
    var idempotencyKey: String
    var createdAt: Date
    var readAt: Date?

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

    /// The notice as its recipient sees it.
    var view: NotificationView {
        NotificationView(
            id: id, kind: kind, text: text, link: link, producer: producer, createdAt: createdAt, readAt: readAt,
            read: readAt != nil)
    }
}

extension NotificationRecord {
    /// Reads the columns by name: the inbox decodes a page of these on every open, and the `Codable` path
    /// through ``SnakeCaseColumns`` costs several times more.
    init(row: Row) throws {
        number = try row.decode(forColumn: Columns.number)
        id = try row.decode(forColumn: Columns.id)
        recipientId = try row.decode(forColumn: Columns.recipientId)
        kind = try row.decode(forColumn: Columns.kind)
        text = try row.decode(forColumn: Columns.text)
        link = try row.decode(forColumn: Columns.link)
        producer = try row.decode(forColumn: Columns.producer)
        idempotencyKey = try row.decode(forColumn: Columns.idempotencyKey)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
        readAt = try row.decodeDateIfPresent(forColumn: Columns.readAt)
    }
}
