import Foundation
import GRDB
import PlatformKit

/// A shopping trip as stored: the trip, what was bought, and each member's part of its bill.
struct StoredTrip: Sendable {
    var trip: TripRow
    var lines: [TripLine]
    var shares: [String: Int]
}

extension HouseholdDatabase {
    /// Completes a shopping trip in one transaction: the picked lines of the household list (by merge key,
    /// with an optional price each) leave the lists, the trip goes into history, and its cost becomes a bill
    /// paid by the shopper. A retry with the same idempotency key returns the trip first made.
    func completeTrip(
        id: String, in householdID: String, by shopperID: String, total: Int, currency: String,
        picks: [(key: String, price: Int?)], idempotencyKey: String?, now: Date
    ) async throws -> (StoredTrip, members: [String], created: Bool) {
        try await writer.write { db in
            let members = try Self.members(db, householdID, asMember: shopperID).map(\.userId)
            if let idempotencyKey,
                let existing = try Self.tripRow(
                    db, "household_id = ? AND shopper_id = ? AND idempotency_key = ?",
                    [householdID, shopperID, idempotencyKey])
            {
                return (try Self.stored(db, existing), members, false)
            }
            let lines = Dictionary(
                Groceries.householdList(try Self.groceries(db, householdID), members: Set(members)).map {
                    ($0.key, $0)
                },
                uniquingKeysWith: { first, _ in first })
            var bought: [TripLine] = []
            var itemIDs: [String] = []
            for pick in picks {
                guard let line = lines[pick.key] else {
                    throw Problem.invalidField("items", "every item must be on the household list.")
                }
                bought.append(
                    TripLine(
                        name: line.name, price: pick.price, communalQuantity: line.communalQuantity,
                        wantedBy: line.wantedBy))
                itemIDs += line.itemIDs
            }
            let shares = try TripCharge.shares(total: total, lines: bought, members: members, seed: id)
            let bill = BillRow(
                id: UUID().uuidString.lowercased(), householdId: householdID, description: "Shopping trip",
                amount: total, currency: currency, payerId: shopperID, splitKind: "trip", createdBy: shopperID,
                idempotencyKey: nil, createdAt: now, updatedAt: now, tripId: id)
            let trip = TripRow(
                id: id, householdId: householdID, shopperId: shopperID, total: total, currency: currency,
                billId: bill.id, idempotencyKey: idempotencyKey, createdAt: now, updatedAt: now)
            try trip.insert(db)
            try Self.insertLines(db, id, bought)
            try bill.insert(db)
            try Self.insertShares(db, bill.id, shares)
            try Self.adjustBalances(db, bill, shares, sign: 1)
            for itemID in itemIDs { _ = try GroceryItemRow.deleteOne(db, key: itemID) }
            try Self.record(db, householdID, "trip_completed", shopperID, "went shopping for the household", now)
            return (StoredTrip(trip: trip, lines: bought, shares: shares), members, true)
        }
    }

    /// Revises a completed trip (its shopper only): what was bought, prices, the total; the bill follows.
    func editTrip(
        _ tripID: String, in householdID: String, by userID: String, total: Int?, currency: String?,
        lines: [TripLine], now: Date
    ) async throws -> (StoredTrip, members: [String]) {
        try await writer.write { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            guard var trip = try Self.tripRow(db, "id = ? AND household_id = ?", [tripID, householdID]) else {
                throw Problem.notFound("The trip")
            }
            guard trip.shopperId == userID else {
                throw Problem.forbidden("not_trip_shopper", "Only the member who went shopping can edit the trip.")
            }
            try Self.requireMembers(lines.flatMap(\.wantedBy.keys), in: members)
            trip.total = total ?? trip.total
            trip.currency = currency ?? trip.currency
            trip.updatedAt = now
            let shares = try TripCharge.shares(total: trip.total, lines: lines, members: members, seed: trip.id)
            guard var bill = try BillRow.fetchOne(db, key: trip.billId) else { throw Problem.notFound("The trip") }
            try Self.adjustBalances(db, bill, try Self.shares(db, bill.id), sign: -1)
            bill.amount = trip.total
            bill.currency = trip.currency
            bill.updatedAt = now
            try bill.update(db)
            try db.execute(sql: "DELETE FROM bill_shares WHERE bill_id = ?", arguments: [bill.id])
            try Self.insertShares(db, bill.id, shares)
            try Self.adjustBalances(db, bill, shares, sign: 1)
            try trip.update(db)
            try db.execute(sql: "DELETE FROM trip_items WHERE trip_id = ?", arguments: [trip.id])
            try Self.insertLines(db, trip.id, lines)
            try Self.record(db, householdID, "trip_edited", userID, "revised a shopping trip", now)
            return (StoredTrip(trip: trip, lines: lines, shares: shares), members)
        }
    }

    func trip(_ tripID: String, in householdID: String, asMember userID: String) async throws -> StoredTrip {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let trip = try Self.tripRow(db, "id = ? AND household_id = ?", [tripID, householdID]) else {
                throw Problem.notFound("The trip")
            }
            return try Self.stored(db, trip)
        }
    }

    /// Trips, newest first, after `cursor` (createdAt, id).
    func trips(of householdID: String, asMember userID: String, after cursor: [String]?, limit: Int) async throws
        -> [StoredTrip]
    {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            var query: SQL = "SELECT \(sql: TripRow.columns) FROM shopping_trips WHERE household_id = \(householdID)"
            if let cursor, cursor.count == 2, let at = Double(cursor[0]) {
                query.append(literal: " AND (created_at, id) < (\(Date(timeIntervalSince1970: at)), \(cursor[1]))")
            }
            query.append(literal: " ORDER BY created_at DESC, id DESC LIMIT \(limit)")
            let trips = try TripRow.fetchAll(db, SQLRequest<TripRow>(literal: query))
            return try trips.map { try Self.stored(db, $0) }
        }
    }

    /// Attaches the receipt photo (the shopper only).
    func setReceipt(
        of tripID: String, in householdID: String, by userID: String, bytes: Data, type: String, etag: String
    ) async throws {
        try await writer.write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let trip = try Self.tripRow(db, "id = ? AND household_id = ?", [tripID, householdID]) else {
                throw Problem.notFound("The trip")
            }
            guard trip.shopperId == userID else {
                throw Problem.forbidden("not_trip_shopper", "Only the member who went shopping can add the receipt.")
            }
            try db.execute(
                sql: "UPDATE shopping_trips SET receipt = ?, receipt_type = ?, receipt_etag = ? WHERE id = ?",
                arguments: [bytes, type, etag, tripID])
        }
    }

    func receipt(of tripID: String, in householdID: String, asMember userID: String) async throws
        -> (bytes: Data, type: String, etag: String)?
    {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard
                let row = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT receipt, receipt_type, receipt_etag FROM shopping_trips
                        WHERE id = ? AND household_id = ? AND receipt IS NOT NULL
                        """,
                    arguments: [tripID, householdID])
            else { return nil }
            return (row["receipt"], row["receipt_type"], row["receipt_etag"])
        }
    }

    private static func tripRow(_ db: Database, _ condition: String, _ arguments: StatementArguments) throws
        -> TripRow?
    {
        try TripRow.fetchOne(
            db, sql: "SELECT \(TripRow.columns) FROM shopping_trips WHERE \(condition)", arguments: arguments)
    }

    private static func stored(_ db: Database, _ trip: TripRow) throws -> StoredTrip {
        let lines = try Row.fetchAll(
            db,
            sql: "SELECT name, price, communal_quantity, wanted_by FROM trip_items WHERE trip_id = ? ORDER BY position",
            arguments: [trip.id]
        ).map { row in
            let wanted: String = row["wanted_by"]
            return TripLine(
                name: row["name"], price: row["price"], communalQuantity: row["communal_quantity"],
                wantedBy: (try? JSONDecoder().decode([String: Int].self, from: Data(wanted.utf8))) ?? [:])
        }
        return StoredTrip(trip: trip, lines: lines, shares: try shares(db, trip.billId))
    }

    private static func insertLines(_ db: Database, _ tripID: String, _ lines: [TripLine]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for (position, line) in lines.enumerated() {
            try db.execute(
                sql: """
                    INSERT INTO trip_items (trip_id, position, name, price, communal_quantity, wanted_by)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    tripID, position, line.name, line.price, line.communalQuantity,
                    String(decoding: try encoder.encode(line.wantedBy), as: UTF8.self),
                ])
        }
    }
}
