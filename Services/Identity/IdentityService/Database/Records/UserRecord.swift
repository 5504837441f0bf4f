import Foundation
import GRDB
import ServiceKit

/// A row of `users`.
struct UserRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "users"

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

    enum Columns {
        static let id = Column("id")
        static let email = Column("email")
        static let username = Column("username")
        static let displayName = Column("display_name")
    }

    var roleList: [String] { roles.split(separator: ",").map(String.init) }
}

/// A row of `avatars`: the profile picture, kept apart so user lookups never load image bytes.
struct AvatarRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "avatars"

    var userId: String
    var mediaType: String
    var etag: String
    var bytes: Data
}

/// A row of `external_identities`: an OpenID Connect account (issuer + subject) linked to a user.
struct ExternalIdentityRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "external_identities"

    var issuer: String
    var subject: String
    var userId: String
    var createdAt: Date
}
