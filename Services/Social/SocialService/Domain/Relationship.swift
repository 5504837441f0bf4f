import ServiceKit

/// How one user stands to another, as a profile screen and other services need it.
struct Relationship: Codable, Sendable, Equatable {
    var friends = false
    /// A friend request from the viewer to the other is waiting.
    var friendRequestSent = false
    /// A friend request from the other to the viewer is waiting.
    var friendRequestReceived = false
    /// The viewer follows the other (approved).
    var following = false
    /// The viewer asked to follow the other and waits for approval.
    var followRequestSent = false
    /// The other asked to follow the viewer and waits for the viewer's approval.
    var followRequestReceived = false
    /// The other follows the viewer (approved).
    var followedBy = false
    /// The viewer blocked the other.
    var blocking = false
    /// Either blocked the other (what other services check before letting them interact).
    var blocked = false

    /// What the viewer may be shown: being blocked is not revealed, the blocked side sees only "not connected".
    var shownToViewer: Relationship {
        blocked && !blocking ? Relationship() : self
    }

    /// The friend, following and blocked facts of each of `others`, from the viewer's whole lists of friends, of
    /// those they follow, and of those blocked either way (the map's many pins).
    static func facts(of others: [String], friends: Set<String>, following: Set<String>, blocked: Set<String>)
        -> [String: Relationship]
    {
        var result: [String: Relationship] = [:]
        for other in others {
            var relationship = Relationship()
            relationship.friends = friends.contains(other)
            relationship.following = following.contains(other)
            relationship.blocked = blocked.contains(other)
            result[other] = relationship
        }
        return result
    }

    /// The other blocked the viewer (and the viewer did not block them): the viewer is shown nothing of them.
    var blockedByOther: Bool { blocked && !blocking }

    /// The public words for it, from the viewer's side.
    var flags: RelationFlags {
        let shown = shownToViewer
        var flags = RelationFlags()
        (flags.friend, flags.friendRequestSent, flags.friendRequestReceived) = (
            shown.friends, shown.friendRequestSent, shown.friendRequestReceived
        )
        (flags.following, flags.followRequestSent, flags.followRequestReceived, flags.followedBy) = (
            shown.following, shown.followRequestSent, shown.followRequestReceived, shown.followedBy
        )
        flags.blocked = shown.blocking
        return flags
    }
}

/// An answer to a pending friend request: `accept` or `decline` by its recipient, `cancel` by its sender.
enum FriendRequestAnswer: String, Sendable {
    case accept, decline, cancel

    /// The request's status once answered so.
    var status: String {
        switch self {
        case .accept: "accepted"
        case .decline: "declined"
        case .cancel: "cancelled"
        }
    }
}

/// The rules of the graph, without storage.
enum SocialRules {
    /// Why a friend request may not be sent, if it may not.
    static func refuseFriendRequest(from sender: String, to recipient: String, _ relationship: Relationship)
        -> SocialError?
    {
        if sender == recipient { return .selfRequest }
        // A block, either way, reads like an unknown user: the blocked side learns nothing.
        if relationship.blocked { return .notFound("The user") }
        if relationship.friends { return .alreadyFriends }
        if relationship.friendRequestSent { return .requestPending }
        return nil
    }

    /// Why a follow request may not be sent, if it may not.
    static func refuseFollow(from follower: String, to followee: String, _ relationship: Relationship) -> SocialError? {
        if follower == followee { return .selfFollow }
        if relationship.blocked { return .notFound("The user") }
        if relationship.following { return .alreadyFollowing }
        if relationship.followRequestSent { return .followPending }
        return nil
    }

    /// Why a block may not be made, if it may not.
    static func refuseBlock(by blocker: String, of blocked: String) -> SocialError? {
        blocker == blocked ? .selfBlock : nil
    }

    /// Friends of friends who are not me, not my friends and not blocked, most mutual friends first
    /// (ties by id, so pages are stable).
    static func suggestions(
        me: String, friends: Set<String>, friendsOfFriends: [(friend: String, candidate: String)], excluded: Set<String>
    ) -> [(userID: String, mutualFriends: Int)] {
        var counts: [String: Int] = [:]
        for (friend, candidate) in friendsOfFriends where friends.contains(friend) {
            guard candidate != me, !friends.contains(candidate), !excluded.contains(candidate) else { continue }
            counts[candidate, default: 0] += 1
        }
        return counts.map { ($0.key, $0.value) }.sorted { ($1.1, $0.0) < ($0.1, $1.0) }
    }
}
