import Foundation
import PlatformKit

/// The one place habits' domain errors become problems (status, code and detail clients see).
extension HabitsError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidField(let field, let reason): Problem.invalidField(field, reason)
        case .notFound(let what): Problem.notFound(what)
        case .eventExists(let day): Problem.conflict("event_exists", "This habit already has an event on \(day).")
        case .eventInFuture:
            Problem.badRequest("event_in_future", "You cannot record an event for a day that has not come.")
        case .eventBeforeStart(let start): Problem.badRequest("event_before_start", "The habit starts on \(start).")
        case .eventNotDue(let day, let dueOn):
            Problem.badRequest(
                "event_not_due", "The habit is not due on \(day) (it is due on \(dueOn.joined(separator: ", "))).")
        }
    }
}
