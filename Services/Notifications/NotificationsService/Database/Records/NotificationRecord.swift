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
        static let readAt = Column("read_at")
    }

    /// The notice as its recipient sees it.
    var view: NotificationView {
        NotificationView(
            id: id, kind: kind, text: text, link: link, producer: producer, createdAt: createdAt, readAt: readAt,
            read: readAt != nil)
    }
}
