import Foundation

/// A row of `sessions`: one signed-in device, the family of its refresh tokens.
struct SessionRecord: Codable, Sendable {
    var id: String
    var userId: String
    var userAgent: String?
    var createdAt: Date
    var lastUsedAt: Date
    var revokedAt: Date?
    var revokeReason: String?
}
