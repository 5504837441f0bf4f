/// Everything the messaging service refuses, with what the answer needs; `MessagingError+Problem.swift` maps
/// each case to the problem a client receives.
enum MessagingError: Error, Equatable {
    /// Nothing the caller may see: missing, or in a conversation they are not in (`what` as the client reads it).
    case notFound(String)
    /// One field of the request is wrong: the field as the client names it, and why.
    case invalidField(String, String)
    /// A direct conversation with oneself.
    case selfConversation
    /// Asking for the groups shared with oneself.
    case selfLookup
    /// Users who are not the caller's friends cannot be added to a group.
    case notFriends([String])
    /// Everyone named to be added is in the group already (each named in the answer).
    case alreadyMembers([String])
    /// Only a friend's groups may be looked at.
    case notFriendsGroups
    /// A block stands between the two people of a direct conversation.
    case blocked
    /// Names, topics and member changes are for groups only.
    case notAGroup
    /// Only the group's admins may do this (`action` completes "Only the group's admins can …").
    case notAdmin(action: String)
    /// The group's creator cannot be removed by others.
    case creatorNotRemovable
    /// The group's creator keeps the admin role.
    case creatorStaysAdmin
    /// The group would grow beyond ``MessagingLimits/maximumGroupSize``.
    case groupFull
    /// The group has a topic of this name already.
    case topicExists(String)
    /// Only a message's sender may change it (`action`: edit, delete).
    case notYourMessage(action: String)
    /// Reporting one's own message.
    case ownMessage
    /// The message carries ``Reactions/maximumDistinct`` emoji already.
    case tooManyReactions
    /// The member pinned ``MessagingLimits/maximumPinnedTopics`` topics of the group already.
    case tooManyPinned
    /// The report queue and its decisions are for platform admins.
    case adminOnly
    /// An uploaded image the platform's checks passed but chat cannot show (why, for the client).
    case invalidImage(String)
    /// The member holds ``ChatImages/maximumPending`` uploads not sent yet.
    case tooManyPendingImages
}
