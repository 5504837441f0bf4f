/// A post's or comment's up- and down-votes, and the one rule for both: a member votes up (1), down (-1) or
/// withdraws (0), one vote per member per item, changeable; an item whose score falls to
/// ``PackLimits/hidingScore`` is hidden for good (Yik Yak's rule).
struct VoteTally: Sendable, Equatable {
    var up: Int
    var down: Int

    var score: Int { up - down }

    /// Whether the votes hide the item (for good: no later vote shows it again).
    var hides: Bool { score <= PackLimits.hidingScore }

    /// Moves one voter's vote from `old` to `new` (each -1, 0 or 1) and answers the change of each count, which
    /// the writer's karma takes too.
    mutating func change(from old: Int, to new: Int) -> (up: Int, down: Int) {
        let delta = (up: (new == 1 ? 1 : 0) - (old == 1 ? 1 : 0), down: (new == -1 ? 1 : 0) - (old == -1 ? 1 : 0))
        up += delta.up
        down += delta.down
        return delta
    }
}

/// A member's karma, one score across all their packs as Jodel keeps it: every up-vote their posts and comments
/// received counts 1, every down-vote -1, and every post they wrote ``perPost``. The counts are kept with the
/// votes (in the same transaction) and stay after packs expire.
enum Karma {
    static let perPost = 2

    static func score(upVotes: Int, downVotes: Int, posts: Int) -> Int {
        upVotes - downVotes + perPost * posts
    }
}
