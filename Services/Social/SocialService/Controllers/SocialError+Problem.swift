import PlatformKit

/// The answer to each refusal of the social graph; codes and texts are part of the API.
extension SocialError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .notFound(let what): Problem.notFound(what)
        case .missingUser: Problem.badRequest("missing_user", "Name the user by userId or username.")
        case .selfRequest: Problem.badRequest("self_request", "You cannot send a friend request to yourself.")
        case .selfFollow: Problem.badRequest("self_follow", "You cannot follow yourself.")
        case .selfBlock: Problem.badRequest("self_block", "You cannot block yourself.")
        case .alreadyFriends: Problem.conflict("already_friends", "You are already friends.")
        case .requestPending:
            Problem.conflict("request_pending", "Your friend request is already waiting for an answer.")
        case .alreadyFollowing: Problem.conflict("already_following", "You already follow this user.")
        case .followPending: Problem.conflict("follow_pending", "Your follow request is already waiting for approval.")
        case .requestNotPending(let status):
            Problem.conflict("request_not_pending", "The friend request was already \(status).")
        }
    }
}
