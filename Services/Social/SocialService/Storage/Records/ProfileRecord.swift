import Foundation

/// A row of `profiles`: the identity service's profile basics, copied.
struct ProfileRecord: Codable, Sendable {
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?
    var fetchedAt: Date
}
