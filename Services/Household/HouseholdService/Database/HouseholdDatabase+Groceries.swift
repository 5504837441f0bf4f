import Foundation
import GRDB
import PlatformKit

extension HouseholdDatabase {
    /// My personal items (visible or not), oldest first.
    func personalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRow] {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try GroceryItemRow.filter(Column("household_id") == householdID && Column("owner_id") == userID)
                .order(Column("created_at"), Column.rowID).fetchAll(db)
        }
    }

    /// The communal list, oldest first.
    func communalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRow] {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try GroceryItemRow.filter(Column("household_id") == householdID && Column("owner_id") == nil)
                .order(Column("created_at"), Column.rowID).fetchAll(db)
        }
    }

    /// The household list: communal and visible personal items merged by name.
    func householdGroceries(of householdID: String, asMember userID: String) async throws -> [Groceries.Line] {
        try await writer.read { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            return Groceries.householdList(try Self.groceries(db, householdID), members: Set(members))
        }
    }

    static func groceries(_ db: Database, _ householdID: String) throws -> [GroceryItemRow] {
        try GroceryItemRow.filter(Column("household_id") == householdID).order(Column("created_at"), Column.rowID)
            .fetchAll(db)
    }

    func addGrocery(_ item: GroceryItemRow) async throws {
        try await writer.write { db in
            _ = try Self.members(db, item.householdId, asMember: item.createdBy)
            guard try GroceryItemRow.filter(Column("household_id") == item.householdId).fetchCount(db) < 1_000 else {
                throw Problem.conflict("grocery_list_full", "The household's lists hold at most 1,000 items.")
            }
            try item.insert(db)
        }
    }

    /// Changes an item: a personal one only by its owner, a communal one by any member.
    func changeGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        _ change: @Sendable (inout GroceryItemRow) throws -> Void
    ) async throws -> GroceryItemRow {
        try await writer.write { db in
            var item = try Self.grocery(db, itemID, householdID, by: userID)
            try change(&item)
            try item.update(db)
            return item
        }
    }

    func deleteGrocery(_ itemID: String, in householdID: String, by userID: String) async throws {
        try await writer.write { db in
            _ = try Self.grocery(db, itemID, householdID, by: userID).delete(db)
        }
    }

    private static func grocery(_ db: Database, _ itemID: String, _ householdID: String, by userID: String) throws
        -> GroceryItemRow
    {
        _ = try members(db, householdID, asMember: userID)
        guard let item = try GroceryItemRow.fetchOne(db, key: itemID), item.householdId == householdID else {
            throw Problem.notFound("The item")
        }
        // Someone else's personal list is private unless shown, and never theirs to change.
        guard item.ownerId == nil || item.ownerId == userID else {
            if item.visible {
                throw Problem.forbidden("not_item_owner", "Only its owner can change a personal item.")
            }
            throw Problem.notFound("The item")
        }
        return item
    }
}
