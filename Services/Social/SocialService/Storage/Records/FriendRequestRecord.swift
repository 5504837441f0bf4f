import Foundation

/// A row of `friend_requests`.
struct FriendRequestRecord: Codable, Sendable {
    var id: String
    var senderId: String
    var recipientId: String
    var status: String
    var createdAt: Date
    var respondedAt: Date?
}
