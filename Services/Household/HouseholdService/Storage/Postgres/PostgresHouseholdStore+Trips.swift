import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func completeTrip(
        id: String, in householdID: String, by shopperID: String, total: Int, currency: String,
        picks requested: [(key: String, price: Int?)]?, idempotencyKey: String?, now: Date,
        notices: ChangeNotices<TripCompleted>?
    ) async throws -> TripCompleted {
        // Behind the household's lock a retry with the same key, on any replica, finds the trip first made; the
        // unique index stays as the last word.
        try await write(locking: householdID, reporting: notices) { db in
            let members = try await db.members(householdID, asMember: shopperID).map(\.userId)
            if let idempotencyKey,
                let existing = try await db.namedRow(
                    """
                    SELECT \(unescaped: TripRecord.columns) FROM shopping_trips
                    WHERE household_id = \(householdID) AND shopper_id = \(shopperID)
                        AND idempotency_key = \(idempotencyKey)
                    """)
            {
                return (try await db.stored(try TripRecord(existing)), members, false)
            }
            // Without a list, what the shopper ticked off in their trip under way.
            var picks = requested ?? []
            if requested == nil {
                picks = (try await db.currentTrip(householdID, shopperID)?.checked ?? []).map { ($0.key, $0.price) }
            }
            let (bought, itemIDs) = try Groceries.purchase(
                picks, from: Groceries.householdList(try await db.groceries(householdID), members: Set(members)))
            let shares = try TripCharge.shares(total: total, lines: bought, members: members, seed: id)
            let bill = BillRecord(
                id: UUID().uuidString.lowercased(), householdId: householdID, description: "Shopping trip",
                amount: total, currency: currency, payerId: shopperID, splitKind: "trip", createdBy: shopperID,
                idempotencyKey: nil, createdAt: now, updatedAt: now, tripId: id, category: "groceries")
            let trip = TripRecord(
                id: id, householdId: householdID, shopperId: shopperID, total: total, currency: currency,
                billId: bill.id, idempotencyKey: idempotencyKey, createdAt: now, updatedAt: now)
            try await db.execute(
                """
                INSERT INTO shopping_trips
                    (id, household_id, shopper_id, total, currency, bill_id, idempotency_key, created_at, updated_at)
                VALUES (\(trip.id), \(householdID), \(shopperID), \(total), \(currency), \(bill.id), \(idempotencyKey),
                    \(now.storedMilliseconds), \(now.storedMilliseconds))
                """)
            try await db.insertLines(householdID, id, bought)
            try await db.insert(bill)
            // The shopper paid it all: a trip's bill has one payer.
            try await db.insertShares(StoredBill(bill: bill, shares: shares))
            try await db.adjustBalances(StoredBill(bill: bill, shares: shares), sign: 1)
            try await db.execute("DELETE FROM grocery_items WHERE id = ANY(\(itemIDs))")
            try await db.record(householdID, "trip_completed", shopperID, "went shopping for the household", now)
            try await db.endShopping(householdID, shopperID)
            return (StoredTrip(trip: trip, lines: bought, shares: shares), members, true)
        }
    }

    func editTrip(
        _ tripID: String, in householdID: String, by userID: String, total: Int?, currency: String?,
        lines: [TripLine], now: Date, notices: ChangeNotices<TripEdited>?
    ) async throws -> TripEdited {
        try await write(locking: householdID, reporting: notices) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            var trip = try await db.trip(tripID, householdID)
            guard trip.shopperId == userID else { throw HouseholdError.notTripShopper(action: "edit the trip") }
            guard lines.flatMap(\.wantedBy.keys).allSatisfy(members.contains) else { throw HouseholdError.notAMember }
            trip.total = total ?? trip.total
            trip.currency = currency ?? trip.currency
            trip.updatedAt = now
            let shares = try TripCharge.shares(total: trip.total, lines: lines, members: members, seed: trip.id)
            guard
                let row = try await db.namedRow(
                    "SELECT \(unescaped: BillRecord.columns) FROM bills WHERE id = \(trip.billId)")
            else { throw HouseholdError.notFound("The trip") }
            var bill = try BillRecord(row)
            try await db.adjustBalances(try await db.stored(bill), sign: -1)
            bill.amount = trip.total
            bill.currency = trip.currency
            bill.updatedAt = now
            try await db.update(bill)
            try await db.replaceShares(StoredBill(bill: bill, shares: shares))
            try await db.execute(
                """
                UPDATE shopping_trips SET total = \(trip.total), currency = \(trip.currency),
                    updated_at = \(now.storedMilliseconds)
                WHERE id = \(trip.id)
                """)
            try await db.execute("DELETE FROM trip_items WHERE trip_id = \(trip.id)")
            try await db.insertLines(householdID, trip.id, lines)
            try await db.record(householdID, "trip_edited", userID, "revised a shopping trip", now)
            return (StoredTrip(trip: trip, lines: lines, shares: shares), members)
        }
    }

    func trip(_ tripID: String, in householdID: String, asMember userID: String) async throws -> StoredTrip {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.stored(try await db.trip(tripID, householdID))
        }
    }

    func trips(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredTrip] {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            var trips: [StoredTrip] = []
            for row in try await db.namedRows(
                """
                SELECT \(unescaped: TripRecord.columns) FROM shopping_trips WHERE household_id = \(householdID)
                AND (\(cursor?.id)::text IS NULL
                    OR (created_at, id) < (\(cursor?.createdAt.storedMilliseconds), \(cursor?.id)))
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """)
            {
                trips.append(try await db.stored(try TripRecord(row)))
            }
            return trips
        }
    }

    func setReceipt(of tripID: String, in householdID: String, by userID: String, _ receipt: StoredBytes)
        async throws
    {
        try await write(locking: householdID) { db in
            _ = try await db.members(householdID, asMember: userID)
            let trip = try await db.trip(tripID, householdID)
            guard trip.shopperId == userID else { throw HouseholdError.notTripShopper(action: "add the receipt") }
            try await db.execute(
                """
                UPDATE shopping_trips SET receipt = \(receipt.bytes), receipt_type = \(receipt.mediaType),
                    receipt_etag = \(receipt.tag.description)
                WHERE id = \(tripID)
                """)
        }
    }

    func receipt(of tripID: String, in householdID: String, asMember userID: String) async throws
        -> StoredBytes?
    {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.namedRow(
                """
                SELECT receipt, receipt_type, receipt_etag FROM shopping_trips
                WHERE id = \(tripID) AND household_id = \(householdID) AND receipt IS NOT NULL
                """
            ).map {
                StoredBytes(
                    bytes: try $0.get("receipt"), mediaType: try $0.get("receipt_type"),
                    tag: EntityTag(stored: try $0.get("receipt_etag")))
            }
        }
    }
}

extension PostgresSession {
    /// The household's trip `tripID`; 404 when there is none.
    func trip(_ tripID: String, _ householdID: String) async throws -> TripRecord {
        guard
            let row = try await namedRow(
                """
                SELECT \(unescaped: TripRecord.columns) FROM shopping_trips
                WHERE id = \(tripID) AND household_id = \(householdID)
                """)
        else { throw HouseholdError.notFound("The trip") }
        return try TripRecord(row)
    }

    func stored(_ trip: TripRecord) async throws -> StoredTrip {
        let lines = try await namedRows(
            """
            SELECT name, price, communal_quantity, wanted_by FROM trip_items WHERE trip_id = \(trip.id)
            ORDER BY position
            """
        ).map { row in
            let wanted: String = try row.get("wanted_by")
            return TripLine(
                name: try row.get("name"), price: try row.get("price"),
                communalQuantity: try row.get("communal_quantity"),
                wantedBy: (try? PlatformJSON.decoder.decode([String: Int].self, from: Data(wanted.utf8))) ?? [:])
        }
        return StoredTrip(trip: trip, lines: lines, shares: try await shares(trip.billId))
    }

    func insertLines(_ householdID: String, _ tripID: String, _ lines: [TripLine]) async throws {
        for (position, line) in lines.enumerated() {
            let wanted = String(decoding: try PlatformJSON.encoder.encode(line.wantedBy), as: UTF8.self)
            try await execute(
                """
                INSERT INTO trip_items (household_id, trip_id, position, name, price, communal_quantity, wanted_by)
                VALUES (\(householdID), \(tripID), \(position), \(line.name), \(line.price), \(line.communalQuantity),
                    \(wanted))
                """)
        }
    }
}
