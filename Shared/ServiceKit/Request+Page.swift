import Hummingbird
import PlatformKit

/// Which part of a short list the route holds whole a request asks for: `limit` items from `offset`.
public struct ShortListWindow: Hashable, Sendable {
    /// How many items at most (1-100).
    public var limit: Int
    /// How many items earlier pages held (the `cursor`, an offset).
    public var offset: Int

    /// That part of `all`, with the cursor of the next page.
    public func page<Item: Encodable & Sendable>(of all: [Item]) -> Page<Item> {
        let items = Array(all.dropFirst(offset).prefix(limit))
        return Page(items: items, nextCursor: OffsetCursor.next(after: offset, count: items.count, total: all.count))
    }
}

extension Request {
    /// The window a short list's request asks for: `limit` (1-100; all of it up to 100 when absent, as these lists
    /// rarely reach that) and `cursor` (an offset); 400 for either out of range.
    public func shortListWindow() throws -> ShortListWindow {
        let query = uri.queryParameters
        let request = try PageRequest(
            limit: query["limit"].map(String.init) ?? String(PageRequest.maximumLimit),
            cursor: query["cursor"].map(String.init))
        return ShortListWindow(limit: request.limit, offset: try request.offset())
    }

    /// One page of a short list the route holds whole (a household's chores, my devices), in the shape every list
    /// has (``shortListWindow()``), answered as `{items, nextCursor}`.
    public func page<Item: Encodable & Sendable>(of all: [Item]) throws -> Page<Item> {
        try shortListWindow().page(of: all)
    }
}
