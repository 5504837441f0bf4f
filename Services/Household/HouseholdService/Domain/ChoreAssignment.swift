/// Who does a chore next.
enum ChoreAssignment: Equatable, Sendable {
    /// Always the same member.
    case fixed(String)
    /// Members take turns in a stored order; members who left are skipped, new ones join at the end.
    case rotating([String])
    /// Whoever earned the fewest points over the last 30 days (fairness by effort, not by count).
    case leastPoints

    var kind: String {
        switch self {
        case .fixed: "fixed"
        case .rotating: "rotating"
        case .leastPoints: "leastPoints"
        }
    }

    /// The member the next occurrence goes to.
    ///
    /// - Parameters:
    ///   - members: current members, in the order they joined.
    ///   - current: who the occurrence just done was assigned to.
    ///   - recentPoints: points per member over the fairness window.
    func next(members: [String], current: String?, recentPoints: [String: Int]) -> String? {
        guard !members.isEmpty else { return nil }
        switch self {
        case .fixed(let member):
            return members.contains(member) ? member : members.first
        case .rotating(let order):
            let turn = Self.turnOrder(order, members: members)
            guard let current, let index = turn.firstIndex(of: current) else { return turn.first }
            return turn[(index + 1) % turn.count]
        case .leastPoints:
            // Ties go to whoever joined first, so the answer is stable.
            return members.min { (recentPoints[$0] ?? 0) < (recentPoints[$1] ?? 0) }
        }
    }

    /// The rotation as it stands: the stored order without members who left, then newcomers.
    static func turnOrder(_ order: [String], members: [String]) -> [String] {
        order.filter(members.contains) + members.filter { !order.contains($0) }
    }

    /// Checks the parts of an assignment a client sent against the household's members.
    static func make(kind: String, assignee: String?, order: [String]?, members: [String]) throws -> ChoreAssignment {
        switch kind {
        case "fixed":
            guard let assignee, members.contains(assignee) else {
                throw HouseholdError.invalidField("assignment.assignee", "must be a member of the household.")
            }
            return .fixed(assignee)
        case "rotating":
            let order = order ?? members
            guard !order.isEmpty, Set(order).count == order.count, order.allSatisfy(members.contains) else {
                throw HouseholdError.invalidField("assignment.order", "must list members of the household, each once.")
            }
            return .rotating(order)
        case "leastPoints":
            return .leastPoints
        default:
            throw HouseholdError.invalidField("assignment.kind", "must be fixed, rotating or leastPoints.")
        }
    }
}
