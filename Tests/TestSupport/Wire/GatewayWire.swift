import Foundation
import NIOHTTP1

// Typed answers of the stand-in upstreams the gateway tests put behind the gateway, and typed reads of
// responses taken off a raw connection.

/// What `MisbehavingUpstream` in `.echo` answers: the request as it saw it.
public struct WireUpstreamEcho: Decodable, Sendable {
    public var method: String
    public var uri: String
    /// Empty when the request carried none.
    public var authorization: String
    public var bodyBytes: Int
}

/// What `MisbehavingUpstream` in `.answerBeforeBody` answers as soon as a head arrives.
public struct WireEarlyAnswer: Decodable, Sendable {
    public var uri: String
}

extension RawHTTPConnection.Response {
    /// The body decoded as `T`; a mismatch fails with the field's coding path and the body.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try APIResponse(
            status: status, headers: HTTPHeaders(headers.map { ($0.name, $0.value) }), body: Data(body)
        ).decode(T.self)
    }
}
