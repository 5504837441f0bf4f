import Foundation

/// A notice as its recipient sees it: in the inbox, and as the payload of the live stream's
/// `notification.created` event.
struct NotificationView: Codable, Sendable, Equatable {
    var id: String
    var kind: String
    var text: String
    var link: String
    var producer: String
    var createdAt: Date
    var readAt: Date?
    var read: Bool
}
