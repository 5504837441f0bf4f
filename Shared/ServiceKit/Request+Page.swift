import Hummingbird
import PlatformKit

extension Request {
    /// One page of a short list the route holds whole (a household's chores, my devices), in the shape every list
    /// has: `limit` (1-100; all of it up to 100 when absent, as these lists rarely reach that) and `cursor`
    /// (an offset), answered as `{items, nextCursor}`.
    public func page<Item: Encodable & Sendable>(of all: [Item]) throws -> Page<Item> {
        let query = uri.queryParameters
        let request = try PageRequest(
            limit: query["limit"].map(String.init) ?? String(PageRequest.maximumLimit),
            cursor: query["cursor"].map(String.init))
        let offset = try request.offset()
        let items = Array(all.dropFirst(offset).prefix(request.limit))
        return Page(items: items, nextCursor: OffsetCursor.next(after: offset, count: items.count, total: all.count))
    }
}
