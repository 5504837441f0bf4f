/// Who may be in a conversation with whom: the rules the conversation routes apply to what the social graph says.
enum GroupRules {
    /// The ids named for a group, each once, without the caller; at most ``MessagingLimits/maximumInvitesPerRequest``
    /// (`field` is the request's list, as the client names it).
    static func invitees(_ ids: [String], except me: String, field: String) throws(MessagingError) -> [String] {
        guard ids.count <= MessagingLimits.maximumInvitesPerRequest else {
            throw .invalidField(field, "at most \(MessagingLimits.maximumInvitesPerRequest) per request.")
        }
        var seen: Set<String> = [me]
        return ids.filter { seen.insert($0).inserted }
    }

    /// `ids` when every one of them is among the caller's `friends`; otherwise the error names those who are not.
    static func requireFriends(_ ids: [String], friends: Set<String>) throws(MessagingError) -> [String] {
        let strangers = ids.filter { !friends.contains($0) }
        guard strangers.isEmpty else { throw .notFriends(strangers) }
        return ids
    }

    /// A new group needs at least two friends besides its creator.
    static func requireEnoughMembers(_ others: [String]) throws(MessagingError) {
        guard others.count >= 2 else { throw .invalidField("memberIds", "choose at least two friends for a group.") }
    }

    /// A direct conversation needs someone else.
    static func requireSomeoneElse(_ other: String, me: String) throws(MessagingError) {
        guard other != me else { throw .selfConversation }
    }

    /// A block either way hides the other person: they read as an unknown user.
    static func requireVisible(blocked: Bool) throws(MessagingError) {
        guard !blocked else { throw .notFound("The user") }
    }

    /// Shared groups are asked about a friend, never oneself.
    static func requireOtherUser(_ other: String, me: String) throws(MessagingError) {
        guard other != me else { throw .selfLookup }
    }

    /// Only a friend's groups may be listed.
    static func requireFriend(_ friends: Bool) throws(MessagingError) {
        guard friends else { throw .notFriendsGroups }
    }

    /// Sending in a direct conversation is refused when a block stands between its two members.
    static func requireMayMessage(blocked: Bool) throws(MessagingError) {
        guard !blocked else { throw .blocked }
    }

    /// Names, topics and member changes are for groups only.
    static func requireGroup(_ kind: ConversationKind) throws(MessagingError) {
        guard kind == .group else { throw .notAGroup }
    }

    /// Only admins may rename a group or change who is in it (`action` completes "Only the group's admins can …").
    static func requireAdmin(_ isAdmin: Bool, to action: String) throws(MessagingError) {
        guard isAdmin else { throw .notAdmin(action: action) }
    }
}

extension GroupRules {
    /// A member's role is `admin` or `member`.
    static func role(_ role: String) throws(MessagingError) -> String {
        guard ["admin", "member"].contains(role) else { throw .invalidField("role", "must be admin or member.") }
        return role
    }
}
