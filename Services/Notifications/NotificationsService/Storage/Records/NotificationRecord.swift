import Foundation

/// A row of `notifications`: one notice in one recipient's inbox.
struct NotificationRecord: Codable, Sendable, Equatable {
    /// Orders the inbox (newest first) and is its cursor; `nil` until stored.
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

    /// The notice as its recipient sees it.
    var view: NotificationView {
        NotificationView(
            id: id, kind: kind, text: text, link: link, producer: producer, createdAt: createdAt, readAt: readAt,
            read: readAt != nil)
    }
}
