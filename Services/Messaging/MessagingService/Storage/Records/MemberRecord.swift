import Foundation

/// A row of `members`.
struct MemberRecord: Codable, Sendable {
    var conversationId: String
    var userId: String
    var role: String
    var muted: Bool
    var lastReadId: Int64
    var joinedAt: Date

    var isAdmin: Bool { role == "admin" }
}
