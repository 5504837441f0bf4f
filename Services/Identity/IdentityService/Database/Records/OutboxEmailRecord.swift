import Foundation
import GRDB
import ServiceKit

/// A row of `outbox_emails`: mail waiting for (or done with) delivery.
struct OutboxEmailRecord: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "outbox_emails"

    var id: Int64?
    var recipient: String
    var subject: String
    var body: String
    var createdAt: Date
    var nextAttemptAt: Date
    var attempts: Int
    var sentAt: Date?
    var lastError: String?

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    enum Columns {
        static let id = Column("id")
        static let sentAt = Column("sent_at")
        static let nextAttemptAt = Column("next_attempt_at")
    }
}
