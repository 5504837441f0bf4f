import Foundation
import PlatformKit
import ServiceKit

/// Who did how much over a range of days: counts and points per member and chore, and mine.
struct ChoreStatistics: Sendable, Equatable {
    /// One member's completions of one chore.
    struct ChoreFigures: Sendable, Equatable {
        var chore: String
        var count: Int
        var points: Int
    }

    /// One member's completions, in all and per chore.
    struct Member: Sendable, Equatable {
        var userID: String
        var displayName: String
        var count: Int
        var points: Int
        var byChore: [ChoreFigures]

        /// The name a chart shows: the start of the id for a member without a name.
        var label: String { displayName.isEmpty ? String(userID.prefix(8)) : displayName }
    }

    var from: LocalDay
    var to: LocalDay
    /// Every member, in the order given, with zeros for those who did nothing.
    var members: [Member]
    /// The figures of the member asking (zeros when they are not among `members`).
    var mine: Member

    /// Sums `rows` (one per member and chore) per member; `names` maps ids to display names.
    init(
        from: LocalDay, to: LocalDay, members: [String], rows: [ChoreTally], names: [String: String], me: String
    ) {
        (self.from, self.to) = (from, to)
        self.members = members.map { id in
            let own = rows.filter { $0.userID == id }
            return Member(
                userID: id, displayName: names[id] ?? "", count: own.reduce(0) { $0 + $1.count },
                points: own.reduce(0) { $0 + $1.points },
                byChore: own.map { ChoreFigures(chore: $0.chore, count: $0.count, points: $0.points) })
        }
        mine =
            self.members.first { $0.userID == me }
            ?? Member(userID: me, displayName: "", count: 0, points: 0, byChore: [])
    }
}
