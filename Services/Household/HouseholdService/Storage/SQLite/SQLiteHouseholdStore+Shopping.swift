import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// Starts my trip (or finds the one under way); `started` is false when one was already under way.
    func startShopping(
        in householdID: String, by userID: String, now: Date, notices: ChangeNotices<HouseholdChange<ShoppingStart>>?
    ) async throws -> ShoppingStart {
        try await write(reporting: notices) { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO shopping_trips_current (household_id, shopper_id, started_at)
                    VALUES (?, ?, ?)
                    """,
                arguments: [householdID, userID, now])
            let started = db.changesCount > 0
            let start = (try Self.currentTrip(db, householdID, userID)!, members: members, started: started)
            return HouseholdChange(value: start, members: members)
        }.value
    }

    /// My trip under way, if any.
    func currentTrip(in householdID: String, of userID: String) async throws -> CurrentTrip? {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Self.currentTrip(db, householdID, userID)
        }
    }

    /// Ticks a line of the household list off my trip under way (or unticks it). The item must be one I see on
    /// the household list: communal, mine, or another member's that they show.
    func check(
        _ itemID: String, in householdID: String, by userID: String, checked: Bool, price: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<CheckedItem>>?
    ) async throws -> (CheckedItem, members: [String]) {
        let change = try await write(reporting: notices) { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            guard try Self.currentTrip(db, householdID, userID) != nil else { throw HouseholdError.notShopping }
            guard
                let item = try GroceryItemRecord.filter(
                    GroceryItemRecord.Columns.id == itemID && GroceryItemRecord.Columns.householdId == householdID
                ).fetchOne(db),
                item.ownerId == nil || item.visible || item.ownerId == userID
            else { throw HouseholdError.notFound("The item") }
            let line = CheckedItem(itemId: item.id, key: item.mergeKey, name: item.name, price: price, checkedAt: now)
            if checked {
                try db.execute(
                    sql: """
                        INSERT INTO shopping_checks
                            (household_id, shopper_id, merge_key, item_id, name, price, checked_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?)
                        ON CONFLICT (household_id, shopper_id, merge_key) DO UPDATE SET
                            item_id = excluded.item_id, name = excluded.name, price = excluded.price,
                            checked_at = excluded.checked_at
                        """,
                    arguments: [householdID, userID, item.mergeKey, item.id, item.name, price, now])
            } else {
                try db.execute(
                    sql: "DELETE FROM shopping_checks WHERE household_id = ? AND shopper_id = ? AND merge_key = ?",
                    arguments: [householdID, userID, item.mergeKey])
            }
            return HouseholdChange(value: line, members: members)
        }
        return (change.value, change.members)
    }

    static func currentTrip(_ db: Database, _ householdID: String, _ shopperID: String) throws -> CurrentTrip? {
        guard
            let startedAt = try Date.fetchOne(
                db.cachedStatement(
                    sql: "SELECT started_at FROM shopping_trips_current WHERE household_id = ? AND shopper_id = ?"),
                arguments: [householdID, shopperID])
        else { return nil }
        let checked = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT item_id, merge_key, name, price, checked_at FROM shopping_checks
                    WHERE household_id = ? AND shopper_id = ? ORDER BY checked_at, merge_key
                    """), arguments: [householdID, shopperID]
        ).map {
            CheckedItem(
                itemId: $0["item_id"], key: $0["merge_key"], name: $0["name"], price: $0["price"],
                checkedAt: $0["checked_at"])
        }
        return CurrentTrip(shopperId: shopperID, startedAt: startedAt, checked: checked)
    }

    /// Ends my trip under way (a completed trip ends it).
    static func endShopping(_ db: Database, _ householdID: String, _ shopperID: String) throws {
        try db.execute(
            sql: "DELETE FROM shopping_trips_current WHERE household_id = ? AND shopper_id = ?",
            arguments: [householdID, shopperID])
    }
}
