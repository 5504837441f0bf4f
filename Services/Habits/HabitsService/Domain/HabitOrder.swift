/// A manual order of a user's habits (Loop Habit Tracker's drag to reorder): the named ones first, in the order
/// named; the rest after them in the order they had.
enum HabitOrder {
    static let maximumIDs = 1_000

    /// The ids in their new order; every one of `requested` must be in `current` (else 404, as for any habit not
    /// mine) and none named twice.
    static func arrange(current: [String], requested: [String]) throws -> [String] {
        guard requested.count <= maximumIDs else {
            throw HabitsError.invalidField("ids", "at most \(maximumIDs) habits.")
        }
        guard Set(requested).count == requested.count else {
            throw HabitsError.invalidField("ids", "must not name a habit twice.")
        }
        let known = Set(current)
        guard requested.allSatisfy(known.contains) else { throw HabitsError.notFound("The habit") }
        let named = Set(requested)
        return requested + current.filter { !named.contains($0) }
    }
}
