/// Reactions to a friend's pin (Polarsteps' likes, with a few more faces): a small fixed set, one reaction per
/// person per pin, changeable and removable; only the owner's friends react, and the owner is told once per friend
/// per pin, however often that friend changes or removes it.
enum PinReactions {
    /// The reactions by the name clients send, each with the emoji it shows.
    static let emoji: [String: String] = ["love": "❤️", "wow": "😮", "envy": "😍", "laugh": "😂", "clap": "👏"]
    /// The names in the order clients list them.
    static let kinds = ["love", "wow", "envy", "laugh", "clap"]
    /// A pin's reactions are read up to this many (its owner's friends; counts stop there).
    static let listed = 1_000

    /// A reaction's name as sent.
    static func kind(_ value: String) throws(GeoError) -> String {
        guard emoji[value] != nil else {
            throw .invalidField("kind", "must be one of \(kinds.joined(separator: ", ")).")
        }
        return value
    }

    /// Who may react to a pin: its owner's friends (a stranger sees the pin but may not react; a block hides it).
    static func requireMayReact(_ category: PinCategory) throws(GeoError) {
        switch category {
        case .friend: return
        case .own: throw .ownPin
        case .other: throw .friendsOnly
        }
    }

    /// Counts per kind, every kind present.
    static func counts(_ reactions: [PinReaction]) -> [String: Int] {
        var counts = Dictionary(uniqueKeysWithValues: kinds.map { ($0, 0) })
        for reaction in reactions { counts[reaction.kind, default: 0] += 1 }
        return counts
    }
}

/// One person's reaction to a pin.
struct PinReaction: Sendable, Equatable {
    var userId: String
    var kind: String
}
