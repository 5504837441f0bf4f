import Foundation

// Typed answers for stack tests: a test decodes the body into the struct that documents the route's answer, so
// a renamed or retyped field fails at the decode, naming the field, instead of far away as a `nil` cast.
// Each product's answers live in a file of their own beside this one (`HouseholdWire.swift`, ...).

/// One page of a paginated list (`{"items": [...], "nextCursor": ...}`).
public struct WirePage<Item: Decodable & Sendable>: Decodable, Sendable {
    public var items: [Item]
    public var nextCursor: String?
}

/// A whole, unpaged list (`{"items": [...]}`).
public struct WireItems<Item: Decodable & Sendable>: Decodable, Sendable {
    public var items: [Item]
}

/// An answer that only names what was created (`{"id": "..."}`).
public struct WireCreated: Decodable, Sendable {
    public var id: String
}

/// Why a body did not decode as the test expected: the decoder's path to the field and the body itself.
public struct WireDecodingError: Error, CustomStringConvertible {
    public var type: String
    public var reason: String
    public var body: String
    public var description: String { "answer is not a \(type): \(reason)\nbody: \(body.prefix(2_000))" }
}

extension APIResponse {
    /// The body decoded as `T`; a mismatch fails with the field's coding path and the body.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        do {
            return try json(T.self)
        } catch let error as DecodingError {
            throw WireDecodingError(type: String(describing: T.self), reason: Self.describe(error), body: text)
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing \(path(context)).\(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
