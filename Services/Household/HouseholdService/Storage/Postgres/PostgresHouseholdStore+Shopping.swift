import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func startShopping(
        in householdID: String, by userID: String, now: Date, notices: ChangeNotices<HouseholdChange<ShoppingStart>>?
    ) async throws -> ShoppingStart {
        try await write(locking: householdID, reporting: notices) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            let started = try await db.execute(
                """
                INSERT INTO shopping_trips_current (household_id, shopper_id, started_at)
                VALUES (\(householdID), \(userID), \(now.storedMilliseconds)) ON CONFLICT DO NOTHING RETURNING 1
                """)
            guard let trip = try await db.currentTrip(householdID, userID) else { throw HouseholdError.notShopping }
            return HouseholdChange(value: (trip, members: members, started: started > 0), members: members)
        }.value
    }

    func currentTrip(in householdID: String, of userID: String) async throws -> CurrentTrip? {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.currentTrip(householdID, userID)
        }
    }

    func check(
        _ itemID: String, in householdID: String, by userID: String, checked: Bool, price: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<CheckedItem>>?
    ) async throws -> (CheckedItem, members: [String]) {
        let change = try await write(locking: householdID, reporting: notices) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            guard try await db.currentTrip(householdID, userID) != nil else { throw HouseholdError.notShopping }
            guard
                let row = try await db.namedRow(
                    """
                    SELECT \(unescaped: GroceryItemRecord.columns) FROM grocery_items
                    WHERE id = \(itemID) AND household_id = \(householdID)
                    """),
                case let item = try GroceryItemRecord(row),
                item.ownerId == nil || item.visible || item.ownerId == userID
            else { throw HouseholdError.notFound("The item") }
            let line = CheckedItem(itemId: item.id, key: item.mergeKey, name: item.name, price: price, checkedAt: now)
            if checked {
                try await db.execute(
                    """
                    INSERT INTO shopping_checks (household_id, shopper_id, merge_key, item_id, name, price, checked_at)
                    VALUES (\(householdID), \(userID), \(item.mergeKey), \(item.id), \(item.name), \(price),
                        \(now.storedMilliseconds))
                    ON CONFLICT (household_id, shopper_id, merge_key) DO UPDATE SET
                        item_id = excluded.item_id, name = excluded.name, price = excluded.price,
                        checked_at = excluded.checked_at
                    """)
            } else {
                try await db.execute(
                    """
                    DELETE FROM shopping_checks
                    WHERE household_id = \(householdID) AND shopper_id = \(userID) AND merge_key = \(item.mergeKey)
                    """)
            }
            return HouseholdChange(value: line, members: members)
        }
        return (change.value, change.members)
    }
}

extension PostgresSession {
    func currentTrip(_ householdID: String, _ shopperID: String) async throws -> CurrentTrip? {
        guard
            let startedAt = try await namedRow(
                """
                SELECT started_at FROM shopping_trips_current
                WHERE household_id = \(householdID) AND shopper_id = \(shopperID)
                """)?.date("started_at")
        else { return nil }
        let checked = try await namedRows(
            """
            SELECT item_id, merge_key, name, price, checked_at FROM shopping_checks
            WHERE household_id = \(householdID) AND shopper_id = \(shopperID) ORDER BY checked_at, merge_key
            """
        ).map {
            CheckedItem(
                itemId: try $0.get("item_id"), key: try $0.get("merge_key"), name: try $0.get("name"),
                price: try $0.get("price"), checkedAt: try $0.date("checked_at"))
        }
        return CurrentTrip(shopperId: shopperID, startedAt: startedAt, checked: checked)
    }

    /// Ends my trip under way (a completed trip ends it).
    func endShopping(_ householdID: String, _ shopperID: String) async throws {
        try await execute(
            "DELETE FROM shopping_trips_current WHERE household_id = \(householdID) AND shopper_id = \(shopperID)")
    }
}
