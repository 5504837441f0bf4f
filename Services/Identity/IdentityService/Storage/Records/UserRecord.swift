import Foundation

/// A row of `users`.
struct UserRecord: Codable, Sendable {
    var id: String
    var email: String?
    var emailVerified: Bool
    var username: String?
    var passwordHash: String?
    var displayName: String
    var bio: String
    var homeCity: String
    var roles: String
    var avatarEtag: String?
    var createdAt: Date
    var updatedAt: Date

    var roleList: [String] { roles.split(separator: ",").map(String.init) }
}
