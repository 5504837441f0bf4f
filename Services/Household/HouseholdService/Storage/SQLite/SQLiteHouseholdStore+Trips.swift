import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// Completes a shopping trip in one transaction: the picked lines of the household list (by merge key,
    /// with an optional price each) leave the lists, the trip goes into history, and its cost becomes a bill
    /// paid by the shopper. A retry with the same idempotency key returns the trip first made.
    func completeTrip(
        id: String, in householdID: String, by shopperID: String, total: Int, currency: String,
        picks requested: [(key: String, price: Int?)]?, idempotencyKey: String?, now: Date,
        notices: ChangeNotices<TripCompleted>?
    ) async throws -> TripCompleted {
        try await write(reporting: notices) { db in
            let members = try Self.members(db, householdID, asMember: shopperID).map(\.userId)
            if let idempotencyKey,
                let existing = try TripRecord.filter(
                    TripRecord.Columns.householdId == householdID && TripRecord.Columns.shopperId == shopperID
                        && TripRecord.Columns.idempotencyKey == idempotencyKey
                ).fetchOne(db)
            {
                return (try Self.stored(db, existing), members, false)
            }
            // Without a list, what the shopper ticked off in their trip under way.
            let picks =
                try requested
                ?? (Self.currentTrip(db, householdID, shopperID)?.checked ?? []).map { ($0.key, $0.price) }
            let (bought, itemIDs) = try Groceries.purchase(
                picks, from: Groceries.householdList(try Self.groceries(db, householdID), members: Set(members)))
            let shares = try TripCharge.shares(total: total, lines: bought, members: members, seed: id)
            let bill = BillRecord(
                id: UUID().uuidString.lowercased(), householdId: householdID, description: "Shopping trip",
                amount: total, currency: currency, payerId: shopperID, splitKind: "trip", createdBy: shopperID,
                idempotencyKey: nil, createdAt: now, updatedAt: now, tripId: id, category: "groceries")
            let trip = TripRecord(
                id: id, householdId: householdID, shopperId: shopperID, total: total, currency: currency,
                billId: bill.id, idempotencyKey: idempotencyKey, createdAt: now, updatedAt: now)
            try trip.insert(db)
            try Self.insertLines(db, id, bought)
            try bill.insert(db)
            // The shopper paid it all: a trip's bill has one payer.
            try Self.insertShares(db, StoredBill(bill: bill, shares: shares))
            try Self.adjustBalances(db, StoredBill(bill: bill, shares: shares), sign: 1)
            for itemID in itemIDs { _ = try GroceryItemRecord.deleteOne(db, key: itemID) }
            try Self.record(db, householdID, "trip_completed", shopperID, "went shopping for the household", now)
            try Self.endShopping(db, householdID, shopperID)
            return (StoredTrip(trip: trip, lines: bought, shares: shares), members, true)
        }
    }

    /// Revises a completed trip (its shopper only): what was bought, prices, the total; the bill follows.
    func editTrip(
        _ tripID: String, in householdID: String, by userID: String, total: Int?, currency: String?,
        lines: [TripLine], now: Date, notices: ChangeNotices<TripEdited>?
    ) async throws -> TripEdited {
        try await write(reporting: notices) { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            var trip = try Self.trip(db, tripID, householdID)
            guard trip.shopperId == userID else { throw HouseholdError.notTripShopper(action: "edit the trip") }
            guard lines.flatMap(\.wantedBy.keys).allSatisfy(members.contains) else { throw HouseholdError.notAMember }
            trip.total = total ?? trip.total
            trip.currency = currency ?? trip.currency
            trip.updatedAt = now
            let shares = try TripCharge.shares(total: trip.total, lines: lines, members: members, seed: trip.id)
            guard var bill = try BillRecord.fetchOne(db, key: trip.billId) else {
                throw HouseholdError.notFound("The trip")
            }
            try Self.adjustBalances(db, try Self.stored(db, bill), sign: -1)
            bill.amount = trip.total
            bill.currency = trip.currency
            bill.updatedAt = now
            try bill.update(db)
            try Self.replaceShares(db, StoredBill(bill: bill, shares: shares))
            try trip.update(db)
            try db.execute(sql: "DELETE FROM trip_items WHERE trip_id = ?", arguments: [trip.id])
            try Self.insertLines(db, trip.id, lines)
            try Self.record(db, householdID, "trip_edited", userID, "revised a shopping trip", now)
            return (StoredTrip(trip: trip, lines: lines, shares: shares), members)
        }
    }

    func trip(_ tripID: String, in householdID: String, asMember userID: String) async throws -> StoredTrip {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Self.stored(db, try Self.trip(db, tripID, householdID))
        }
    }

    /// Trips, newest first, after `cursor` (createdAt, id).
    func trips(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws
        -> [StoredTrip]
    {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            let trips = try Self.newestFirst(
                TripRecord.filter(TripRecord.Columns.householdId == householdID), after: cursor, limit: limit
            ).fetchAll(db)
            return try trips.map { try Self.stored(db, $0) }
        }
    }

    /// Attaches the receipt photo (the shopper only).
    func setReceipt(of tripID: String, in householdID: String, by userID: String, _ receipt: StoredBytes)
        async throws
    {
        try await write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            let trip = try Self.trip(db, tripID, householdID)
            guard trip.shopperId == userID else { throw HouseholdError.notTripShopper(action: "add the receipt") }
            try db.execute(
                sql: "UPDATE shopping_trips SET receipt = ?, receipt_type = ?, receipt_etag = ? WHERE id = ?",
                arguments: [receipt.bytes, receipt.mediaType, receipt.tag.description, tripID])
        }
    }

    func receipt(of tripID: String, in householdID: String, asMember userID: String) async throws
        -> StoredBytes?
    {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT receipt, receipt_type, receipt_etag FROM shopping_trips
                            WHERE id = ? AND household_id = ? AND receipt IS NOT NULL
                            """), arguments: [tripID, householdID])
            else { return nil }
            return StoredBytes(
                bytes: row["receipt"], mediaType: row["receipt_type"], tag: EntityTag(stored: row["receipt_etag"]))
        }
    }

    /// The household's trip `tripID`; 404 when there is none.
    private static func trip(_ db: Database, _ tripID: String, _ householdID: String) throws -> TripRecord {
        guard let trip = try TripRecord.fetchOne(db, key: tripID), trip.householdId == householdID else {
            throw HouseholdError.notFound("The trip")
        }
        return trip
    }

    private static func stored(_ db: Database, _ trip: TripRecord) throws -> StoredTrip {
        let lines = try Row.fetchAll(
            db.cachedStatement(
                sql:
                    "SELECT name, price, communal_quantity, wanted_by FROM trip_items WHERE trip_id = ? ORDER BY position"
            ), arguments: [trip.id]
        ).map { row in
            let wanted: String = row["wanted_by"]
            return TripLine(
                name: row["name"], price: row["price"], communalQuantity: row["communal_quantity"],
                wantedBy: (try? PlatformJSON.decoder.decode([String: Int].self, from: Data(wanted.utf8))) ?? [:])
        }
        return StoredTrip(trip: trip, lines: lines, shares: try shares(db, trip.billId))
    }

    private static func insertLines(_ db: Database, _ tripID: String, _ lines: [TripLine]) throws {
        for (position, line) in lines.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO trip_items (trip_id, position, name, price, communal_quantity, wanted_by)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    tripID, position, line.name, line.price, line.communalQuantity,
                    String(decoding: try PlatformJSON.encoder.encode(line.wantedBy), as: UTF8.self),
                ])
        }
    }
}
