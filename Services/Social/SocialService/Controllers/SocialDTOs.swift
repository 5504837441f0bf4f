import Foundation
import Hummingbird

/// A user in a list, with their profile basics.
struct UserSummary: Codable, Sendable {
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?

    init(_ profile: ProfileRow?, id: String) {
        userId = id
        username = profile?.username
        displayName = profile?.displayName ?? ""
        avatarUrl = profile?.avatarUrl
    }
}

struct FriendRequestView: ResponseEncodable, Sendable {
    var id: String
    var status: String
    var createdAt: Date
    var from: UserSummary
    var to: UserSummary
}

struct SuggestionView: Encodable, Sendable {
    var user: UserSummary
    var mutualFriends: Int
}

struct UserList: ResponseEncodable, Sendable {
    var items: [UserSummary]
}

struct RelationshipView: ResponseEncodable, Sendable {
    var userId: String
    var relationship: Relationship
}
