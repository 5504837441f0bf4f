import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func personalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRecord] {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.namedRows(
                """
                SELECT \(unescaped: GroceryItemRecord.columns) FROM grocery_items
                WHERE household_id = \(householdID) AND owner_id = \(userID) ORDER BY created_at, seq
                """
            ).map(GroceryItemRecord.init)
        }
    }

    func communalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRecord] {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.namedRows(
                """
                SELECT \(unescaped: GroceryItemRecord.columns) FROM grocery_items
                WHERE household_id = \(householdID) AND owner_id IS NULL ORDER BY created_at, seq
                """
            ).map(GroceryItemRecord.init)
        }
    }

    func householdGroceries(of householdID: String, asMember userID: String) async throws -> [Groceries.Line] {
        try await write(.repeatableRead) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            return Groceries.householdList(try await db.groceries(householdID), members: Set(members))
        }
    }

    func addGrocery(_ item: GroceryItemRecord, notices: ChangeNotices<HouseholdChange<GroceryItemRecord>>?)
        async throws
    {
        _ = try await write(locking: item.householdId, reporting: notices) { db in
            let members = try await db.members(item.householdId, asMember: item.createdBy)
            let count =
                try await db.namedRow(
                    "SELECT COUNT(*) AS count FROM grocery_items WHERE household_id = \(item.householdId)")?
                .get("count", as: Int.self) ?? 0
            guard count < 1_000 else { throw HouseholdError.groceryListFull }
            try await db.execute(
                """
                INSERT INTO grocery_items
                    (id, household_id, owner_id, name, merge_key, quantity, note, visible, created_by, created_at)
                VALUES (\(item.id), \(item.householdId), \(item.ownerId), \(item.name), \(item.mergeKey),
                    \(item.quantity), \(item.note), \(item.visible), \(item.createdBy), \(item.createdAt.storedMilliseconds))
                """)
            return HouseholdChange(value: item, members: members.map(\.userId))
        }
    }

    func changeGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        notices: ChangeNotices<HouseholdChange<GroceryEdit>>?,
        _ change: @Sendable (inout GroceryItemRecord) throws -> Void
    ) async throws -> GroceryEdit {
        try await write(locking: householdID, reporting: notices) { db in
            let (before, members) = try await db.grocery(itemID, householdID, by: userID)
            var item = before
            try change(&item)
            try await db.execute(
                """
                UPDATE grocery_items SET owner_id = \(item.ownerId), name = \(item.name), merge_key = \(item.mergeKey),
                    quantity = \(item.quantity), note = \(item.note), visible = \(item.visible),
                    created_by = \(item.createdBy), created_at = \(item.createdAt.storedMilliseconds)
                WHERE id = \(item.id)
                """)
            return HouseholdChange(value: (before, item), members: members)
        }.value
    }

    @discardableResult
    func deleteGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        notices: ChangeNotices<HouseholdChange<GroceryItemRecord>>?
    ) async throws -> GroceryItemRecord {
        try await write(locking: householdID, reporting: notices) { db in
            let (item, members) = try await db.grocery(itemID, householdID, by: userID)
            try await db.execute("DELETE FROM grocery_items WHERE id = \(itemID)")
            return HouseholdChange(value: item, members: members)
        }.value
    }

    func grocerySuggestions(in householdID: String, asMember userID: String, prefix: String, limit: Int)
        async throws -> [(name: String, uses: Int)]
    {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            guard !Self.holdsNUL(prefix) else { return [] }
            // SQLite's LIKE and lower() fold ASCII letters only; ascii_lower does the same here.
            return try await db.namedRows(
                """
                SELECT MIN(name) AS name, COUNT(*) AS uses FROM (
                    SELECT i.name FROM trip_items i JOIN shopping_trips t ON t.id = i.trip_id
                    WHERE t.household_id = \(householdID)
                    UNION ALL
                    SELECT name FROM grocery_items
                    WHERE household_id = \(householdID) AND (owner_id IS NULL OR visible OR owner_id = \(userID))
                ) names
                WHERE ascii_lower(name) LIKE ascii_lower(\(TextSearch.escaped(prefix))) || '%' ESCAPE '\\'
                GROUP BY ascii_lower(name) ORDER BY uses DESC, ascii_lower(name) COLLATE "C" LIMIT \(limit)
                """
            ).map { row -> (name: String, uses: Int) in (try row.get("name"), try row.get("uses")) }
        }
    }
}

extension PostgresSession {
    /// Every item of the household, oldest first.
    func groceries(_ householdID: String) async throws -> [GroceryItemRecord] {
        try await namedRows(
            """
            SELECT \(unescaped: GroceryItemRecord.columns) FROM grocery_items WHERE household_id = \(householdID)
            ORDER BY created_at, seq
            """
        ).map(GroceryItemRecord.init)
    }

    /// The item `userID` may change, and the household's members.
    func grocery(_ itemID: String, _ householdID: String, by userID: String) async throws
        -> (GroceryItemRecord, members: [String])
    {
        let members = try await members(householdID, asMember: userID).map(\.userId)
        guard
            let row = try await namedRow(
                """
                SELECT \(unescaped: GroceryItemRecord.columns) FROM grocery_items
                WHERE id = \(itemID) AND household_id = \(householdID)
                """)
        else { throw HouseholdError.notFound("The item") }
        let item = try GroceryItemRecord(row)
        // Someone else's personal list is private unless shown, and never theirs to change.
        guard item.ownerId == nil || item.ownerId == userID else {
            if item.visible { throw HouseholdError.notItemOwner }
            throw HouseholdError.notFound("The item")
        }
        return (item, members)
    }
}
