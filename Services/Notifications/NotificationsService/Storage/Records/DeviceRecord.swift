import Foundation

/// A row of `devices`: one APNs token, of one session of one user.
struct DeviceRecord: Codable, Sendable, Equatable {
    var token: String
    var userId: String
    var sessionId: String
    var environment: String
    var createdAt: Date
}
