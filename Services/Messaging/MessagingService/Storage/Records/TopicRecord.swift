import Foundation

/// A row of `topics`.
struct TopicRecord: Codable, Sendable {
    var id: Int64?
    var conversationId: String
    var name: String
    var resolved: Bool
    var createdBy: String
    var createdAt: Date
    var lastMessageId: Int64?
    var lastActivityAt: Date
}
