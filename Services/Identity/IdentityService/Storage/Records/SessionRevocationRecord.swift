import Foundation

/// A row of `session_revocations`: a session that ended while its access tokens were still valid.
struct SessionRevocationRecord: Codable, Sendable {
    var sequence: Int64
    var sessionId: String
    var expiresAt: Date
}
