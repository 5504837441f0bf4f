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
