/// Who a live event about a change in a household goes to.
enum LiveAudience: Sendable {
    /// Every member, the actor's other devices included.
    case everyone
    /// The actor alone (a personal item hidden from the household list).
    case actor
    /// Every member but the actor (an item just hidden leaves their lists, not the actor's).
    case othersThanActor

    /// The recipients among `members` of a change `actor` made.
    func recipients(members: [String], actor: String) -> [String] {
        switch self {
        case .everyone: members
        case .actor: [actor]
        case .othersThanActor: members.filter { $0 != actor }
        }
    }

    /// Whether the recipients depend on who the members are.
    var needsMembers: Bool { self != .actor }
}
