import Foundation

extension Problem {
    /// The 400 `invalid_body` answering a body that did not decode: the field named as the client wrote it, and
    /// what it must be in their terms, never the decoder's own words (which name Swift types).
    public static func invalidBody(_ error: DecodingError) -> Problem {
        invalidBody(fieldError(error))
    }

    /// The problem for `error` decoding `type` from `body`; where the error names no field (Foundation on Linux
    /// for an out-of-range number or a bad date), the body is decoded again to find it.
    public static func invalidBody<T: Decodable>(_ error: DecodingError, locating type: T.Type, in body: Data) -> Problem {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
            let located = DecodingErrorLocator.locate(type, in: body)
        {
            return invalidBody(fieldError(located))
        }
        return invalidBody(fieldError(error))
    }

    private static func invalidBody(_ fieldError: (String, String)?) -> Problem {
        guard let (field, reason) = fieldError else {
            return Problem(status: 400, code: "invalid_body", title: "Bad request", detail: "The body is not valid JSON.")
        }
        let name = field.isEmpty ? "the body" : field
        return Problem(
            status: 400, code: "invalid_body", title: "Bad request", detail: "\(name): \(reason)",
            errors: [FieldError(field: field, reason: reason)])
    }

    /// The field and reason of `error`; `nil` when the body is not JSON at all.
    private static func fieldError(_ error: DecodingError) -> (String, String)? {
        switch error {
        case .keyNotFound(let key, let context):
            return (fieldPath(context.codingPath + [key]), "is required.")
        case .valueNotFound(let type, let context):
            return (fieldPath(context.codingPath), "must not be null; \(expectation(type))")
        case .typeMismatch(let type, let context):
            return (fieldPath(context.codingPath), expectation(type))
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return nil }
            return (fieldPath(context.codingPath), reason(context.debugDescription))
        @unknown default:
            return ("", "could not be read.")
        }
    }

    /// `split.amounts`, `items[2].price`: keys as declared (camelCase, as on the wire), indexes in brackets.
    static func fieldPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "Index \(index)" {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// What a value of `type` must be, in words a client developer uses.
    private static func expectation(_ type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "must be a whole number."
        case is any BinaryFloatingPoint.Type, is Decimal.Type: "must be a number."
        case is String.Type, is Substring.Type: "must be a string."
        case is Bool.Type: "must be true or false."
        case is Date.Type: "must be a date and time as RFC 3339, such as 2026-01-31T09:30:00Z."
        default:
            // Arrays and objects arrive as the decoder's container types.
            String(describing: type).hasPrefix("Array") ? "must be a list." : "must be an object."
        }
    }

    /// The reason for a value of the right JSON type that is still not acceptable.
    private static func reason(_ description: String) -> String {
        if description.contains("does not fit in") { return "must be a whole number within range." }
        if description.contains("Cannot initialize") { return "is not one of the accepted values." }
        if description.hasPrefix("Expected date string") { return "must be a date and time as RFC 3339." }
        // Our own value types (LocalDay, ...) say what they expect in the client's terms.
        if description.hasPrefix("expected ") { return "must be " + description.dropFirst("expected ".count) + "." }
        return "is not a valid value."
    }
}
