import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The user a request names by `userId` or `username`.
struct UserTarget: Decodable {
    var userId: String?
    var username: String?

    /// The reference to resolve: the id when given, else the username in its canonical form.
    func reference() throws -> ProfileStore.Reference {
        if let userId { return .id(userId) }
        guard let username else { throw SocialError.missingUser }
        return .username(try Validate.username(username))
    }
}

/// A user in a list, with their profile basics.
struct UserSummary: Codable, Sendable {
    var userId: String
    var username: String?
    var displayName: String
    var avatarUrl: String?

    init(_ profile: ProfileRecord?, id: String) {
        userId = id
        username = profile?.username
        displayName = profile?.displayName ?? ""
        avatarUrl = profile?.avatarUrl
    }
}

/// Every list of people is a page of these: written by hand rather than through `Encodable`'s containers. The bytes
/// are those of `encode(to:)` (members sorted, absent optionals left out), which Foundation's encoder still uses; a
/// test compares the two.
extension UserSummary: JSONSelfWriting {
    func writeJSON(to json: JSONOutput) {
        // The first member is optional: the brace goes with whichever comes first.
        if let avatarUrl {
            json.raw(#"{"avatarUrl":"#)
            json.string(avatarUrl)
            json.raw(#","displayName":"#)
        } else {
            json.raw(#"{"displayName":"#)
        }
        json.string(displayName)
        json.raw(#","userId":"#)
        json.string(userId)
        json.string(#","username":"#, username)
        json.raw("}")
    }
}

struct FriendRequestView: ResponseEncodable, Sendable {
    var id: String
    var status: String
    var createdAt: Date
    var from: UserSummary
    var to: UserSummary

    init(_ row: FriendRequestRecord, _ known: [String: ProfileRecord]) {
        id = row.id
        status = row.status
        createdAt = row.createdAt
        from = UserSummary(known[row.senderId], id: row.senderId)
        to = UserSummary(known[row.recipientId], id: row.recipientId)
    }
}

struct SuggestionView: Encodable, Sendable {
    var user: UserSummary
    var mutualFriends: Int
}

struct RelationshipView: ResponseEncodable, Sendable {
    var userId: String
    var relationship: RelationFlags
}
