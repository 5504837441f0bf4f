import Foundation

/// A measurable habit's numbers (targets and the day's values, "2 l", "20 pages"), kept as exact thousandths so that
/// 0.1 + 0.2 of a target never rounds against the user.
enum Amounts {
    /// The largest target or value: a million units.
    static let maximum = 1_000_000.0
    static let maximumUnitLength = 12

    /// `value` as thousandths, checked: finite, from 0 (or above 0 for a target) to a million, at most three decimals
    /// kept (rounded half away from zero).
    static func thousandths(_ value: Double, field: String, positive: Bool) throws -> Int64 {
        guard value.isFinite, value >= 0, value <= maximum else {
            throw HabitsError.invalidField(field, "must be a number from 0 to 1000000.")
        }
        let exact = Int64((value * 1000).rounded())
        guard !positive || exact > 0 else { throw HabitsError.invalidField(field, "must be at least 0.001.") }
        return exact
    }

    /// Thousandths as the number clients send and receive.
    static func number(_ thousandths: Int64) -> Double { Double(thousandths) / 1000 }
}

/// When a day counts as done: a yes/no habit on any event; a measurable habit (Loop Habit Tracker's "at least"
/// kind) once the day's value meets its target.
struct DoneRule: Sendable, Equatable {
    /// The target in thousandths; nil for a yes/no habit.
    let target: Int64?

    func isDone(value: Int64?) -> Bool {
        guard let target else { return true }
        return (value ?? 0) >= target
    }
}
