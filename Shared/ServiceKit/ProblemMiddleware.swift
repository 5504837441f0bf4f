import Foundation
import Hummingbird
import Logging
import PlatformKit
import PostgresNIO

/// Turns every error a route throws into an RFC 9457 response, so clients see one shape for all of them.
///
/// Hummingbird's own errors (unknown route, body too large) and decoding errors become 4xx problems; a PostgreSQL
/// database that cannot be reached a 503 with `Retry-After`; anything unexpected is logged and answered with a 500
/// problem that reveals nothing.
public struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch {
            return Self.problem(for: error, logger: context.logger).response()
        }
    }

    /// The problem that answers `error`.
    public static func problem(for error: any Error, logger: Logger) -> Problem {
        switch error {
        case let problem as Problem:
            return problem
        case let error as any ProblemConvertible:
            return error.problem
        case let error as HTTPError:
            return problem(status: error.status.code, message: error.body)
        case let error as DecodingError:
            return Problem.invalidBody(error)
        case let error as any HTTPResponseError:
            return problem(status: error.status.code, message: nil)
        case is CancellationError:
            return Problem(status: 503, code: "cancelled", title: "Request cancelled")
        case let error as PSQLError where error.meansDatabaseUnavailable:
            // A failover or a restart of PostgreSQL: the client may try again (the gateway sends a GET or a
            // keyed write again on its own only when the connection to the service fails, not on this answer).
            logger.warning("database unavailable", metadata: ["error": "\(String(reflecting: error))"])
            return Problem(
                status: 503, code: "database_unavailable", title: "Service unavailable",
                detail: "The service's database is not answering; try again shortly.", retryAfter: 1)
        default:
            logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))"])
            return Problem(
                status: 500, code: "internal_error", title: "Internal error",
                detail: "Something went wrong on our side.")
        }
    }

    private static func problem(status: Int, message: String?) -> Problem {
        switch status {
        case 404:
            return Problem(status: 404, code: "not_found", title: "Not found", detail: message ?? "No such route.")
        case 405: return Problem(status: 405, code: "method_not_allowed", title: "Method not allowed", detail: message)
        case 413: return Problem(status: 413, code: "payload_too_large", title: "Payload too large", detail: message)
        case 400: return Problem(status: 400, code: "invalid_body", title: "Bad request", detail: message)
        case 401..<500: return Problem(status: status, code: "bad_request", title: "Bad request", detail: message)
        default: return Problem(status: status, code: "upstream_error", title: "Error", detail: message)
        }
    }
}
