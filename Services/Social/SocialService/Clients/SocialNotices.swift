import PlatformKit
import ServiceKit

/// The notices the social graph sends to the notifications service: their kinds, texts, links and the keys
/// that make a retried post add nothing.
struct SocialNotices: Sendable {
    let sink: any NoticeSink

    func friendRequest(_ request: FriendRequestRecord, from name: String?) async {
        await sink.publish(
            Notice(
                recipients: [request.recipientId], kind: "social.friend_request",
                text: "\(name ?? "Someone") wants to be your friend.", link: SocialPaths.friendRequests,
                idempotencyKey: "friend-request:\(request.id)"))
    }

    /// Tells `recipient` their friend request `request` was accepted by `name`.
    func friendAccepted(_ request: FriendRequestRecord, to recipient: String, by name: String?) async {
        await sink.publish(
            Notice(
                recipients: [recipient], kind: "social.friend_accepted",
                text: "\(name ?? "Someone") accepted your friend request.", link: SocialPaths.friends,
                idempotencyKey: "friend-accepted:\(request.id)"))
    }

    func followRequest(to followee: String, from name: String?) async {
        await sink.publish(
            Notice(
                recipients: [followee], kind: "social.follow_request", text: "\(name ?? "Someone") asks to follow you.",
                link: SocialPaths.followRequests))
    }

    func followApproved(to follower: String, by name: String?) async {
        await sink.publish(
            Notice(
                recipients: [follower], kind: "social.follow_approved",
                text: "\(name ?? "Someone") approved your follow request.", link: SocialPaths.following))
    }
}
