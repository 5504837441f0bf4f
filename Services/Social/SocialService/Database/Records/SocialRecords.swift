import Foundation
import GRDB
import ServiceKit

/// A row of `friend_requests`.
struct FriendRequestRow: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "friend_requests"
    var id: String
    var senderId: String
    var recipientId: String
    var status: String
    var createdAt: Date
    var respondedAt: Date?
}

/// A row of `profiles`: the identity service's profile basics, copied.
struct ProfileRow: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "profiles"
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?
    var fetchedAt: Date
}
