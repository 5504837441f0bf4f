import PlatformKit
import ServiceKit

/// The notices the social graph sends to the notifications service: their kinds, texts, links and the keys
/// that make a retried post add nothing.
struct SocialNotices: Sendable {
    let sink: any NoticeSink

    /// The notice a friend request sent by `name` to `target` gives: a request, or the other's accepted one.
    static func friendRequest(_ outcome: FriendRequestOutcome, to target: String, from name: String?) -> Notice {
        switch outcome {
        case .sent(let request):
            Notice(
                recipients: [request.recipientId], kind: "social.friend_request",
                text: "\(name ?? "Someone") wants to be your friend.", link: SocialPaths.friendRequests,
                idempotencyKey: "friend-request:\(request.id)")
        case .becameFriends(let request): friendAccepted(request, to: target, by: name)
        }
    }

    /// Records the friend request's notice in the store's write when the notices go through the outbox; `nil` when
    /// they go to the sink after it (``sent(_:to:from:)``).
    func recorded(to target: String, from name: String?) -> ChangeNotices<FriendRequestOutcome>? {
        sink.recorder.map { ChangeNotices(recorder: $0) { [Self.friendRequest($0, to: target, from: name)] } }
    }

    /// Hands a friend request's notice to the sink.
    func sent(_ outcome: FriendRequestOutcome, to target: String, from name: String?) async {
        await sink.publish(Self.friendRequest(outcome, to: target, from: name))
    }

    /// Tells `recipient` their friend request `request` was accepted by `name`.
    func friendAccepted(_ request: FriendRequestRecord, to recipient: String, by name: String?) async {
        await sink.publish(Self.friendAccepted(request, to: recipient, by: name))
    }

    static func friendAccepted(_ request: FriendRequestRecord, to recipient: String, by name: String?) -> Notice {
        Notice(
            recipients: [recipient], kind: "social.friend_accepted",
            text: "\(name ?? "Someone") accepted your friend request.", link: SocialPaths.friends,
            idempotencyKey: "friend-accepted:\(request.id)")
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
