import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// My personal items (visible or not), oldest first.
    func personalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try GroceryItemRecord.filter(
                GroceryItemRecord.Columns.householdId == householdID && GroceryItemRecord.Columns.ownerId == userID
            )
            .order(GroceryItemRecord.Columns.createdAt, Column.rowID).fetchAll(db)
        }
    }

    /// The communal list, oldest first.
    func communalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try GroceryItemRecord.filter(
                GroceryItemRecord.Columns.householdId == householdID && GroceryItemRecord.Columns.ownerId == nil
            )
            .order(GroceryItemRecord.Columns.createdAt, Column.rowID).fetchAll(db)
        }
    }

    /// The household list: communal and visible personal items merged by name.
    func householdGroceries(of householdID: String, asMember userID: String) async throws -> [Groceries.Line] {
        try await read { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            return Groceries.householdList(try Self.groceries(db, householdID), members: Set(members))
        }
    }

    static func groceries(_ db: Database, _ householdID: String) throws -> [GroceryItemRecord] {
        try GroceryItemRecord.filter(GroceryItemRecord.Columns.householdId == householdID).order(
            GroceryItemRecord.Columns.createdAt, Column.rowID
        )
        .fetchAll(db)
    }

    func addGrocery(_ item: GroceryItemRecord, notices: ChangeNotices<HouseholdChange<GroceryItemRecord>>?)
        async throws
    {
        _ = try await write(reporting: notices) { db in
            let members = try Self.members(db, item.householdId, asMember: item.createdBy)
            guard
                try GroceryItemRecord.filter(GroceryItemRecord.Columns.householdId == item.householdId).fetchCount(db)
                    < 1_000
            else {
                throw HouseholdError.groceryListFull
            }
            try item.insert(db)
            return HouseholdChange(value: item, members: members.map(\.userId))
        }
    }

    /// Changes an item: a personal one only by its owner, a communal one by any member.
    func changeGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        notices: ChangeNotices<HouseholdChange<GroceryEdit>>?,
        _ change: @Sendable (inout GroceryItemRecord) throws -> Void
    ) async throws -> GroceryEdit {
        try await write(reporting: notices) { db in
            let (before, members) = try Self.grocery(db, itemID, householdID, by: userID)
            var item = before
            try change(&item)
            try item.update(db)
            return HouseholdChange(value: (before, item), members: members)
        }.value
    }

    /// Deletes the item and returns what it was.
    @discardableResult
    func deleteGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        notices: ChangeNotices<HouseholdChange<GroceryItemRecord>>?
    ) async throws -> GroceryItemRecord {
        try await write(reporting: notices) { db in
            let (item, members) = try Self.grocery(db, itemID, householdID, by: userID)
            _ = try item.delete(db)
            return HouseholdChange(value: item, members: members)
        }.value
    }

    /// The item `userID` may change, and the household's members.
    private static func grocery(_ db: Database, _ itemID: String, _ householdID: String, by userID: String) throws
        -> (GroceryItemRecord, members: [String])
    {
        let members = try members(db, householdID, asMember: userID).map(\.userId)
        guard let item = try GroceryItemRecord.fetchOne(db, key: itemID), item.householdId == householdID else {
            throw HouseholdError.notFound("The item")
        }
        // Someone else's personal list is private unless shown, and never theirs to change.
        guard item.ownerId == nil || item.ownerId == userID else {
            if item.visible {
                throw HouseholdError.notItemOwner
            }
            throw HouseholdError.notFound("The item")
        }
        return (item, members)
    }
}

extension SQLiteHouseholdStore {
    /// Item names from the household's grocery history (bought on its trips, and on its lists now; another
    /// member's hidden personal items excepted) that start with `prefix`, ignoring ASCII case; most used first,
    /// then alphabetically; at most `limit`.
    func grocerySuggestions(in householdID: String, asMember userID: String, prefix: String, limit: Int)
        async throws -> [(name: String, uses: Int)]
    {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT MIN(name) AS name, COUNT(*) AS uses FROM (
                            SELECT i.name FROM trip_items i JOIN shopping_trips t ON t.id = i.trip_id
                            WHERE t.household_id = ?
                            UNION ALL
                            SELECT name FROM grocery_items
                            WHERE household_id = ? AND (owner_id IS NULL OR visible = 1 OR owner_id = ?)
                        ) WHERE \(TextSearch.startsWith("name"))
                        GROUP BY lower(name) ORDER BY uses DESC, lower(name) LIMIT ?
                        """), arguments: [householdID, householdID, userID, TextSearch.escaped(prefix), limit]
            ).map { row -> (name: String, uses: Int) in (row["name"], row["uses"]) }
        }
    }
}
