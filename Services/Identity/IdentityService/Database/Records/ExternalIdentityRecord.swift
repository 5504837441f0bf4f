import Foundation
import GRDB
import ServiceKit

/// A row of `external_identities`: an OpenID Connect account (issuer + subject) linked to a user.
struct ExternalIdentityRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "external_identities"

    var issuer: String
    var subject: String
    var userId: String
    var createdAt: Date

    enum Columns {
        static let issuer = Column("issuer")
        static let subject = Column("subject")
        static let userId = Column("user_id")
        static let createdAt = Column("created_at")
    }
}
