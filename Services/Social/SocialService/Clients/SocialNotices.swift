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

    /// A friend request's notice, reported by the store's write (``ChangeNotices``).
    func friendRequest(to target: String, from name: String?) -> ChangeNotices<FriendRequestOutcome> {
        ChangeNotices(sink: sink, notices: { [Self.friendRequest($0, to: target, from: name)] })
    }

    /// An answer to a friend request, reported by the store's write: an accepted one tells its sender it was
    /// accepted by `name`.
    func answered(by name: String?) -> ChangeNotices<FriendRequestRecord> {
        ChangeNotices(sink: sink) { request in
            request.status == FriendRequestAnswer.accept.status
                ? [Self.friendAccepted(request, to: request.senderId, by: name)] : []
        }
    }

    static func friendAccepted(_ request: FriendRequestRecord, to recipient: String, by name: String?) -> Notice {
        Notice(
            recipients: [recipient], kind: "social.friend_accepted",
            text: "\(name ?? "Someone") accepted your friend request.", link: SocialPaths.friends,
            idempotencyKey: "friend-accepted:\(request.id)")
    }

    /// A follow request's notice to `followee`, reported by the store's write.
    func followRequest(to followee: String, from name: String?) -> ChangeNotices<Relationship> {
        ChangeNotices(sink: sink) { _ in
            [
                Notice(
                    recipients: [followee], kind: "social.follow_request",
                    text: "\(name ?? "Someone") asks to follow you.", link: SocialPaths.followRequests)
            ]
        }
    }

    /// An answered follow request: an approval tells `follower`, reported by the store's write.
    func followAnswered(to follower: String, by name: String?) -> ChangeNotices<Bool> {
        ChangeNotices(sink: sink) { approved in
            guard approved else { return [] }
            return [
                Notice(
                    recipients: [follower], kind: "social.follow_approved",
                    text: "\(name ?? "Someone") approved your follow request.", link: SocialPaths.following)
            ]
        }
    }
}
