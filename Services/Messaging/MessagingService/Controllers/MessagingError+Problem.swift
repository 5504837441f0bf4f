import PlatformKit

/// The answer to each refusal of the messaging service.
extension MessagingError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .notFound(let what): .notFound(what)
        case .invalidField(let field, let detail): .invalidField(field, detail)
        case .selfConversation: .badRequest("self_conversation", "A direct conversation needs someone else.")
        case .selfLookup: .badRequest("self_lookup", "Name a friend, not yourself.")
        case .notFriends(let strangers):
            .forbidden(
                "not_friends", "Only your friends can be added; not friends: \(strangers.joined(separator: ", ")).")
        case .alreadyMembers(let ids):
            Problem(
                status: 409, code: "already_member", title: "Conflict",
                detail: "Already in the group: \(ids.joined(separator: ", ")).",
                errors: ids.map { Problem.FieldError(field: "userIds", reason: "\($0) is already a member.") })
        case .notFriendsGroups: .forbidden("not_friends", "You can only see the groups of your friends.")
        case .blocked: .forbidden("blocked", "You cannot send messages to this user.")
        case .notAGroup: .conflict("not_a_group", "Direct conversations have no name, topics or member changes.")
        case .notAdmin(let action): .forbidden("not_admin", "Only the group's admins can \(action).")
        case .creatorNotRemovable: .forbidden("not_admin", "The group's creator cannot be removed.")
        case .creatorStaysAdmin: .forbidden("not_admin", "The group's creator stays an admin.")
        case .groupFull: .conflict("group_full", "A group has at most \(MessagingLimits.maximumGroupSize) members.")
        case .topicExists(let name): .conflict("topic_exists", "This group already has a topic named '\(name)'.")
        case .notYourMessage(let action): .forbidden("not_your_message", "You can only \(action) your own messages.")
        case .ownMessage: .forbidden("own_item", "You cannot report your own message.")
        case .tooManyReactions:
            .conflict(
                "too_many_reactions", "A message carries at most \(Reactions.maximumDistinct) different emoji.")
        case .tooManyPinned:
            .conflict(
                "too_many_pinned", "You can pin at most \(MessagingLimits.maximumPinnedTopics) topics of a group.")
        case .adminOnly: .forbidden("admin_only", "Only a platform admin can do this.")
        case .invalidImage(let detail):
            Problem(
                status: 400, code: "invalid_image", title: "Invalid image", detail: detail,
                errors: [.init(field: "body", reason: detail)])
        case .tooManyPendingImages:
            .conflict(
                "too_many_pending_images",
                "You have \(ChatImages.maximumPending) images not sent yet; send them or wait a day for them to go.")
        }
    }
}
