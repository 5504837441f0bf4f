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
