import Foundation

/// A row of `grocery_items`: on the communal list when `ownerId` is nil, else on the owner's personal list.
struct GroceryItemRecord: Codable, Sendable {
    var id: String
    var householdId: String
    var ownerId: String?
    var name: String
    var mergeKey: String
    var quantity: Int
    var note: String?
    /// A personal item shows in the household list only when visible.
    var visible: Bool
    var createdBy: String
    var createdAt: Date
}
