import Foundation

/// Why the habits service refuses a request; `Controllers/HabitsError+Problem.swift` turns each case into the
/// problem a client receives.
enum HabitsError: Error, Equatable {
    /// A field breaks a rule; `field` as the client wrote it, `reason` for people.
    case invalidField(_ field: String, _ reason: String)
    /// Nothing here, or nothing the caller may see (another user's habit): "The habit".
    case notFound(_ what: String)
    /// A habit has at most one event per day.
    case eventExists(day: String)
    /// Events are for days that have come.
    case eventInFuture
    /// Events are for days from the habit's start.
    case eventBeforeStart(start: String)
    /// Events are for days the habit is due; `dueOn` are the weekday names it is due on.
    case eventNotDue(day: String, dueOn: [String])
}
