import Hummingbird
import PlatformKit

extension Request {
    /// The `limit` and `cursor` query parameters of a list route, validated (a bad limit is a 400 problem).
    public func pageRequest() throws -> PageRequest {
        let query = uri.queryParameters
        return try PageRequest(limit: query["limit"].map(String.init), cursor: query["cursor"].map(String.init))
    }
}

extension Parameters {
    /// A numeric id from the path; anything else names nothing (404 naming `what`).
    public func id(_ name: String, _ what: String) throws -> Int64 {
        guard let value = self.get(name), let id = Int64(value), id > 0 else { throw Problem.notFound(what) }
        return id
    }
}

/// The query of a long-polled feed: `after` (a sequence, none for the first poll) and `wait` (seconds).
public struct LongPollQuery: Sendable {
    /// The last sequence the poller saw; `nil` on its first poll.
    public var after: Int64?
    /// How long to wait for something new when there is nothing after `after` (0: answer at once).
    public var wait: Int

    /// Reads `after` (0 or more) and `wait` (0 to `maximumWait`) from the request; a bad value is a 400 problem.
    public init(_ request: Request, maximumWait: Int) throws {
        let query = request.uri.queryParameters
        after = try query.get("after").map { text -> Int64 in
            guard let value = Int64(text), value >= 0 else {
                throw Problem.invalidField("after", "must be a sequence number, 0 or more.")
            }
            return value
        }
        wait =
            try query.get("wait").map { text -> Int in
                guard let value = Int(text), (0...maximumWait).contains(value) else {
                    throw Problem.invalidField("wait", "must be 0 to \(maximumWait) seconds.")
                }
                return value
            } ?? 0
    }
}
