import Foundation

/// A row of `external_identities`: an OpenID Connect account (issuer + subject) linked to a user.
struct ExternalIdentityRecord: Codable, Sendable {
    var issuer: String
    var subject: String
    var userId: String
    var createdAt: Date
}
