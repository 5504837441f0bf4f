import Foundation

/// A row of `refresh_tokens`: only the SHA-256 of the token is stored.
struct RefreshTokenRecord: Codable, Sendable {
    var tokenHash: String
    var sessionId: String
    var createdAt: Date
    var rotatedAt: Date?
}
