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
    init(row: Row) {
        number = row[Columns.number]
        id = row[Columns.id]
        recipientId = row[Columns.recipientId]
        kind = row[Columns.kind]
        text = row[Columns.text]
        link = row[Columns.link]
        producer = row[Columns.producer]
        idempotencyKey = row[Columns.idempotencyKey]
        createdAt = row[Columns.createdAt]
        readAt = row[Columns.readAt]
    }
}
