import Foundation

/// A row of `outbox_emails`: mail waiting for (or done with) delivery.
struct OutboxEmailRecord: Codable, Sendable {
    var id: Int64?
    var recipient: String
    var subject: String
    var body: String
    var createdAt: Date
    var nextAttemptAt: Date
    var attempts: Int
    var sentAt: Date?
    var lastError: String?
}
