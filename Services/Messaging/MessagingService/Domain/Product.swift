/// The app a conversation was started in. Each app has its own lists, unread counts and direct chat per pair.
enum Product: String, Codable, Sendable, CaseIterable {
    case wegroup, getaway

    /// Conversations from before products existed belong to WeGroup (migration `v2-messaging-product`).
    static let legacy = Product.wegroup

    /// The client's `product`: required, one of the apps (`field` as the client names it).
    static func parse(_ value: String?, field: String = "product") throws -> Product {
        guard let value, let product = Product(rawValue: value) else {
            throw MessagingError.invalidField(field, "must be wegroup or getaway.")
        }
        return product
    }

    /// The optional `product` filter of a list: `nil` (every app's) when absent.
    static func filter(_ value: String?) throws -> Product? {
        try value.map { try parse($0) }
    }
}
