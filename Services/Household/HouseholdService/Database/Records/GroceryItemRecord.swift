import Foundation
import GRDB

/// A row of `grocery_items`: on the communal list when `ownerId` is nil, else on the owner's personal list.
struct GroceryItemRecord: HouseholdTable {
    static let databaseTableName = "grocery_items"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let ownerId = Column("owner_id")
        static let name = Column("name")
        static let mergeKey = Column("merge_key")
        static let quantity = Column("quantity")
        static let note = Column("note")
        static let visible = Column("visible")
        static let createdBy = Column("created_by")
        static let createdAt = Column("created_at")
    }

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
