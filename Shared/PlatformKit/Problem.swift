import Foundation

/// An RFC 9457 problem: the error body every service and the gateway answer with.
///
/// `code` is the stable, machine-readable part clients switch on; `title` and `detail` are for people.
public struct Problem: Error, Codable, Sendable, Equatable {
    /// A URI naming the problem type (a relative reference under `/problems/`).
    public var type: String
    /// A short summary that is the same for every occurrence of this type.
    public var title: String
    /// The HTTP status code (`status` in the body).
    public var statusCode: Int
    /// What went wrong this time, for a person.
    public var detail: String?
    /// The stable machine-readable code, e.g. `username_taken`.
    public var code: String
    /// Seconds the client should wait before retrying, for 429 and 503 answers (also sent as `Retry-After`).
    public var retryAfter: Int?
    /// The invalid fields of a 400, each named as the client wrote it (`amount`, `split.amounts`, `items[2].price`).
    public var errors: [FieldError]?
    /// For a refused payment (`overpayment`), what the payer owes the payee in minor units (RFC 9457 extension).
    public var owed: Int?

    /// One invalid field and what it must be.
    public struct FieldError: Codable, Sendable, Equatable {
        /// The field's path in the request, in the client's words.
        public var field: String
        /// What is wrong with it, for a person (`must be a whole number of minor units`).
        public var reason: String

        /// The error of `field`.
        public init(field: String, reason: String) {
            self.field = field
            self.reason = reason
        }
    }

    /// Creates a problem with the given status and stable code.
    public init(
        status: Int, code: String, title: String, detail: String? = nil, retryAfter: Int? = nil,
        errors: [FieldError]? = nil, owed: Int? = nil
    ) {
        self.type = "/problems/\(code)"
        self.title = title
        self.statusCode = status
        self.detail = detail
        self.code = code
        self.retryAfter = retryAfter
        self.errors = errors
        self.owed = owed
    }

    enum CodingKeys: String, CodingKey {
        case type, title, detail, code, retryAfter, errors, owed
        case statusCode = "status"
    }

    /// The media type of the body (RFC 9457 section 3).
    public static let mediaType = "application/problem+json"

    /// The problem encoded as JSON; encoding a plain struct of strings and ints cannot fail.
    public var jsonData: Data {
        (try? PlatformJSON.encoder.encode(self)) ?? Data(#"{"status":500,"code":"internal_error"}"#.utf8)
    }
}

extension Problem {
    /// 400: the request is malformed or a field is invalid.
    public static func badRequest(_ code: String = "bad_request", _ detail: String) -> Problem {
        Problem(status: 400, code: code, title: "Bad request", detail: detail)
    }

    /// 400 for one invalid field, naming it.
    public static func invalidField(_ field: String, _ detail: String) -> Problem {
        Problem(
            status: 400, code: "invalid_\(field.snakeCased)", title: "Invalid field", detail: "\(field): \(detail)",
            errors: [FieldError(field: field, reason: detail)])
    }

    /// 401: missing, expired or forged credentials.
    public static func unauthorized(
        _ code: String = "unauthorized", _ detail: String = "A valid access token is required."
    )
        -> Problem
    {
        Problem(status: 401, code: code, title: "Unauthorized", detail: detail)
    }

    /// 403: the caller is known but may not do this.
    public static func forbidden(_ code: String = "forbidden", _ detail: String) -> Problem {
        Problem(status: 403, code: code, title: "Forbidden", detail: detail)
    }

    /// 404: nothing here, or nothing the caller may see.
    public static func notFound(_ what: String) -> Problem {
        Problem(status: 404, code: "not_found", title: "Not found", detail: "\(what) was not found.")
    }

    /// 409: the request conflicts with what is stored.
    public static func conflict(_ code: String, _ detail: String) -> Problem {
        Problem(status: 409, code: code, title: "Conflict", detail: detail)
    }

    /// 413: the body is larger than the route accepts.
    public static func payloadTooLarge(limit: Int) -> Problem {
        Problem(
            status: 413, code: "payload_too_large", title: "Payload too large",
            detail: "The body exceeds \(limit) bytes.")
    }

    /// 415: the body is not of a type the route accepts.
    public static func unsupportedMediaType(_ detail: String) -> Problem {
        Problem(status: 415, code: "unsupported_media_type", title: "Unsupported media type", detail: detail)
    }

    /// 429: too many attempts; retry after the given number of seconds.
    public static func tooManyRequests(retryAfter: Int, _ detail: String = "Too many requests; try again later.")
        -> Problem
    {
        Problem(
            status: 429, code: "rate_limited", title: "Too many requests", detail: detail,
            retryAfter: max(1, retryAfter))
    }

    /// 503: an upstream service cannot be reached.
    public static func serviceUnavailable(_ service: String) -> Problem {
        Problem(
            status: 503, code: "service_unavailable", title: "Service unavailable",
            detail: "The \(service) service is not reachable right now.", retryAfter: 1)
    }
}

extension String {
    fileprivate var snakeCased: String {
        var result = ""
        for character in self {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// An error that knows the problem answering it: a service's domain errors conform in one place per service
/// (`Controllers/<Service>Error+Problem.swift`), so its `Domain/` stays free of HTTP.
public protocol ProblemConvertible: Error {
    /// The RFC 9457 problem a client receives for this error.
    var problem: Problem { get }
}
