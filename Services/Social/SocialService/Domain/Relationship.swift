import PlatformKit

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
    var followRequested = false
    /// The other follows the viewer (approved).
    var followedBy = false
    /// The viewer blocked the other.
    var blocking = false
    /// Either blocked the other (what other services check before letting them interact).
    var blocked = false
}

/// The rules of the graph, without storage.
enum SocialRules {
    /// Why a friend request may not be sent, if it may not.
    static func refuseFriendRequest(from sender: String, to recipient: String, _ relationship: Relationship) -> Problem?
    {
        if sender == recipient {
            return Problem.badRequest("self_request", "You cannot send a friend request to yourself.")
        }
        // A block, either way, reads like an unknown user: the blocked side learns nothing.
        if relationship.blocked { return Problem.notFound("The user") }
        if relationship.friends { return Problem.conflict("already_friends", "You are already friends.") }
        if relationship.friendRequestSent {
            return Problem.conflict("request_pending", "Your friend request is already waiting for an answer.")
        }
        return nil
    }

    /// Why a follow request may not be sent, if it may not.
    static func refuseFollow(from follower: String, to followee: String, _ relationship: Relationship) -> Problem? {
        if follower == followee { return Problem.badRequest("self_follow", "You cannot follow yourself.") }
        if relationship.blocked { return Problem.notFound("The user") }
        if relationship.following { return Problem.conflict("already_following", "You already follow this user.") }
        if relationship.followRequested {
            return Problem.conflict("follow_pending", "Your follow request is already waiting for approval.")
        }
        return nil
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
