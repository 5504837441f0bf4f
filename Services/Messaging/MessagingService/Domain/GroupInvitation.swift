import ServiceKit

/// Bringing people into a group the inviter is in: who is named, who is new, whom the inviter may bring in, and
/// whom the answer reports as already there. The store and the social graph supply the facts.
struct GroupInvitation: Sendable, Equatable {
    /// The ids named, each once, without the inviter.
    let invitees: [String]

    /// The invitation of `userIDs` (the request's `userIds`): at most ``MessagingLimits/maximumInvitesPerRequest``,
    /// and someone besides the inviter.
    init(userIDs: [String], by inviter: String) throws(MessagingError) {
        invitees = try GroupRules.invitees(userIDs, except: inviter, field: "userIds")
        guard !invitees.isEmpty else { throw .invalidField("userIds", "name at least one friend.") }
    }

    /// Those named who are not in the group yet; when nobody is new, the error names everyone named.
    func newcomers(members: Set<String>) throws(MessagingError) -> [String] {
        let newcomers = invitees.filter { !members.contains($0) }
        guard !newcomers.isEmpty else { throw .alreadyMembers(invitees) }
        return newcomers
    }

    /// Those named whom the store did not add (they were in the group already), for the answer.
    func alreadyMembers(added: [String]) -> [String] {
        let added = Set(added)
        return invitees.filter { !added.contains($0) }
    }

    /// `ids` when the inviter may bring them into a conversation of `product`, by `facts` (the social graph's
    /// answer about the inviter and each of them): friends in WeGroup (else `not_friends` naming the others),
    /// anyone not blocked either way in Getaway (else not found, as for a stranger).
    static func admitted(_ ids: [String], in product: Product, facts: [String: SocialFacts]) throws(MessagingError)
        -> [String]
    {
        guard product == .getaway else {
            return try GroupRules.requireFriends(ids, friends: Set(ids.filter { facts[$0]?.friends == true }))
        }
        for id in ids { try GroupRules.requireVisible(blocked: facts[id]?.blocked == true) }
        return ids
    }
}
