import Foundation

// Typed answers of the social service (Services/Social/SocialService/Controllers/SocialDTOs.swift, the domain's
// `Relationship` and the internal controller's answers), as the stack tests read them.

/// A user in a list, with their profile basics (`UserSummary`).
public struct WireUserSummary: Decodable, Sendable {
    public var userId: String
    public var username: String?
    public var displayName: String
    public var avatarUrl: String?
}

/// A friend request (`FriendRequestView`); `status` is `pending`, `accepted`, `rejected` or `cancelled`.
public struct WireFriendRequest: Decodable, Sendable {
    public var id: String
    public var status: String
    public var createdAt: Date
    public var from: WireUserSummary
    public var to: WireUserSummary
}

/// A suggested friend and how many friends they share with the viewer (`SuggestionView`).
public struct WireSuggestion: Decodable, Sendable {
    public var user: WireUserSummary
    public var mutualFriends: Int
}

/// How one user stands to another (`Relationship`).
public struct WireRelationship: Decodable, Sendable, Equatable {
    public var friends: Bool
    public var friendRequestSent: Bool
    public var friendRequestReceived: Bool
    public var following: Bool
    public var followRequestSent: Bool
    public var followRequestReceived: Bool
    public var followedBy: Bool
    public var blocking: Bool
    public var blocked: Bool

    /// Every flag, for "nothing at all" checks.
    public var flags: [Bool] {
        [
            friends, friendRequestSent, friendRequestReceived, following, followRequestSent, followRequestReceived,
            followedBy, blocking, blocked,
        ]
    }
}

/// The viewer's relationship to one user (`RelationshipView`).
public struct WireRelationshipView: Decodable, Sendable {
    public var userId: String
    public var relationship: WireRelationFlags
}

/// How the viewer stands to another user in every public answer (`RelationFlags`).
public struct WireRelationFlags: Decodable, Sendable, Equatable {
    public var friend = false
    public var friendRequestSent = false
    public var friendRequestReceived = false
    public var following = false
    public var followRequestSent = false
    public var followRequestReceived = false
    public var followedBy = false
    public var blocked = false

    public init() {}

    /// Every flag, for "nothing at all" checks.
    public var flags: [Bool] {
        [
            friend, friendRequestSent, friendRequestReceived, following, followRequestSent, followRequestReceived,
            followedBy, blocked,
        ]
    }

    /// The names of the flags that are set, for readable expectations.
    public var names: [String] {
        let all = [
            "friend", "friendRequestSent", "friendRequestReceived", "following", "followRequestSent",
            "followRequestReceived", "followedBy", "blocked",
        ]
        return zip(all, flags).filter(\.1).map(\.0)
    }
}

/// Ids of users (internal `IDs`).
public struct WireUserIDs: Decodable, Sendable {
    public var ids: [String]
}

/// A user's friends and those blocked either way (internal `FriendAndBlockedIDs`).
public struct WireFriendAndBlockedIDs: Decodable, Sendable, Equatable {
    public var friendIds: [String]
    public var blockedIds: [String]
    public init(friendIds: [String], blockedIds: [String]) {
        self.friendIds = friendIds
        self.blockedIds = blockedIds
    }
}

/// How a viewer stands to each of many users (internal `BatchReply`).
public struct WireRelationshipFacts: Decodable, Sendable {
    /// The three facts a map or a feed needs per user (`Facts`).
    public struct Facts: Decodable, Sendable {
        public var friends: Bool
        public var following: Bool
        public var blocked: Bool
    }
    public var relationships: [String: Facts]
}
