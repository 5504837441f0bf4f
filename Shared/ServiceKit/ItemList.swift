import Hummingbird

/// A whole, unpaged list as a JSON object (`{"items": [...]}`), so a list can later grow fields or pages.
public struct ItemList<Item: Encodable & Sendable>: ResponseEncodable, Sendable {
    /// The items, in the order the route documents.
    public var items: [Item]

    /// A list of `items`.
    public init(items: [Item]) {
        self.items = items
    }
}
