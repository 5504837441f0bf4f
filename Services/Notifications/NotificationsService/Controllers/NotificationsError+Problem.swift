import PlatformKit

/// The answer to each refusal of the notifications service; codes and texts are part of the API.
extension NotificationsError: ProblemConvertible {
    var problem: Problem {
        switch self {
        case .invalidField(let field, let detail): Problem.invalidField(field, detail)
        case .notFound(let what): Problem.notFound(what)
        }
    }
}
