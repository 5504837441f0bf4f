/// Why the social graph refused a request; `Controllers/SocialError+Problem.swift` turns each into its answer.
enum SocialError: Error, Equatable {
    /// Nothing the caller may see under that name; `what` is how the answer names it ("The user").
    case notFound(String)
    /// A request named its user by neither `userId` nor `username`.
    case missingUser
    case selfRequest
    case selfFollow
    case selfBlock
    case alreadyFriends
    case requestPending
    case alreadyFollowing
    case followPending
    /// The friend request was already answered; `status` is what became of it.
    case requestNotPending(status: String)
}
