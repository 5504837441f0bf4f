import Foundation
import GRDB
import PlatformKit

extension HouseholdDatabase {
    /// Stores a bill and its shares; a retry with the same idempotency key returns the bill first made.
    func createBill(_ bill: BillRow, shares: [String: Int]) async throws -> (BillRow, [String: Int], created: Bool) {
        try await writer.write { db in
            let members = try Self.members(db, bill.householdId, asMember: bill.createdBy).map(\.userId)
            try Self.requireMembers(Array(shares.keys) + [bill.payerId], in: members)
            if let key = bill.idempotencyKey,
                let existing = try BillRow.filter(
                    Column("household_id") == bill.householdId && Column("created_by") == bill.createdBy
                        && Column("idempotency_key") == key
                ).fetchOne(db)
            {
                return (existing, try Self.shares(db, existing.id), false)
            }
            try bill.insert(db)
            try Self.insertShares(db, bill.id, shares)
            try Self.adjustBalances(db, bill, shares, sign: 1)
            try Self.record(
                db, bill.householdId, "bill_added", bill.createdBy, "added the bill \(bill.description)", bill.createdAt
            )
            return (bill, shares, true)
        }
    }

    /// Replaces a bill's fields and shares.
    func updateBill(_ bill: BillRow, shares: [String: Int], by userID: String) async throws {
        try await writer.write { db in
            let members = try Self.members(db, bill.householdId, asMember: userID).map(\.userId)
            try Self.requireMembers(Array(shares.keys) + [bill.payerId], in: members)
            guard let old = try BillRow.fetchOne(db, key: bill.id), old.householdId == bill.householdId else {
                throw Problem.notFound("The bill")
            }
            guard old.tripId == nil || bill.tripId == old.tripId else { throw Self.billOfTrip }
            try Self.adjustBalances(db, old, try Self.shares(db, old.id), sign: -1)
            try bill.update(db)
            try db.execute(sql: "DELETE FROM bill_shares WHERE bill_id = ?", arguments: [bill.id])
            try Self.insertShares(db, bill.id, shares)
            try Self.adjustBalances(db, bill, shares, sign: 1)
        }
    }

    func bill(_ billID: String, in householdID: String, asMember userID: String) async throws -> (
        BillRow, [String: Int]
    ) {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let bill = try BillRow.fetchOne(db, key: billID), bill.householdId == householdID else {
                throw Problem.notFound("The bill")
            }
            return (bill, try Self.shares(db, billID))
        }
    }

    func deleteBill(_ billID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await writer.write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let bill = try BillRow.fetchOne(db, key: billID), bill.householdId == householdID else {
                throw Problem.notFound("The bill")
            }
            guard bill.tripId == nil else { throw Self.billOfTrip }
            try Self.adjustBalances(db, bill, try Self.shares(db, bill.id), sign: -1)
            try bill.delete(db)
            try Self.record(db, householdID, "bill_deleted", userID, "deleted the bill \(bill.description)", now)
        }
    }

    /// Bills, newest first, after `cursor` (createdAt, id), with their shares.
    func bills(of householdID: String, asMember userID: String, after cursor: [String]?, limit: Int) async throws
        -> [(BillRow, [String: Int])]
    {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            var request = BillRow.filter(Column("household_id") == householdID)
            if let cursor, cursor.count == 2, let at = Double(cursor[0]) {
                request = request.filter(
                    sql: "(created_at, id) < (?, ?)", arguments: [Date(timeIntervalSince1970: at), cursor[1]])
            }
            let bills = try request.order(Column("created_at").desc, Column("id").desc).limit(limit).fetchAll(db)
            return try bills.map { ($0, try Self.shares(db, $0.id)) }
        }
    }

    func recordPayment(_ payment: PaymentRow) async throws {
        try await writer.write { db in
            let members = try Self.members(db, payment.householdId, asMember: payment.fromId).map(\.userId)
            try Self.requireMembers([payment.toId], in: members)
            try payment.insert(db)
            try Self.adjustBalances(
                db, payment.householdId, payment.currency,
                [payment.fromId: payment.amount, payment.toId: -payment.amount])
            try Self.record(db, payment.householdId, "payment", payment.fromId, "paid a roommate", payment.createdAt)
        }
    }

    /// Each member's net balance per currency: what they paid (bills, payments made) minus what they owe
    /// (their shares, payments received). Every currency sums to zero. Read from the running balances.
    func balances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    ) {
        try await writer.read { db in
            (try Self.members(db, householdID, asMember: userID).map(\.userId), try Self.balances(db, householdID))
        }
    }

    static func balances(_ db: Database, _ householdID: String) throws -> [String: [String: Int]] {
        var net: [String: [String: Int]] = [:]
        let rows = try Row.fetchCursor(
            db, sql: "SELECT currency, user_id, net FROM member_balances WHERE household_id = ?",
            arguments: [householdID])
        while let row = try rows.next() {
            net[row[0], default: [:]][row[1]] = row[2] as Int
        }
        return net
    }

    /// The same balances summed from every bill, share and payment (what the running balances must equal).
    func recomputedBalances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    ) {
        try await writer.read { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            var net: [String: [String: Int]] = [:]
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT currency, payer_id AS user_id, SUM(amount) AS amount FROM bills WHERE household_id = ?
                    GROUP BY currency, payer_id
                    UNION ALL
                    SELECT b.currency, s.user_id, -SUM(s.amount) FROM bill_shares s JOIN bills b ON b.id = s.bill_id
                    WHERE b.household_id = ? GROUP BY b.currency, s.user_id
                    UNION ALL
                    SELECT currency, from_id, SUM(amount) FROM payments WHERE household_id = ? GROUP BY currency, from_id
                    UNION ALL
                    SELECT currency, to_id, -SUM(amount) FROM payments WHERE household_id = ? GROUP BY currency, to_id
                    """,
                arguments: [householdID, householdID, householdID, householdID])
            for row in rows {
                let currency: String = row["currency"]
                let user: String = row["user_id"]
                net[currency, default: [:]][user, default: 0] += row["amount"] as Int
            }
            return (members, net)
        }
    }

    static let billOfTrip = Problem.conflict(
        "bill_of_trip", "This bill is the cost of a shopping trip; edit the trip instead.")

    /// Adds (`sign` 1) or takes back (-1) what a bill does to its members' running balances.
    static func adjustBalances(_ db: Database, _ bill: BillRow, _ shares: [String: Int], sign: Int) throws {
        var change = shares.mapValues { -$0 * sign }
        change[bill.payerId, default: 0] += bill.amount * sign
        try adjustBalances(db, bill.householdId, bill.currency, change)
    }

    /// Moves members' running balances in one currency; a balance back at zero is removed.
    static func adjustBalances(_ db: Database, _ householdID: String, _ currency: String, _ change: [String: Int])
        throws
    {
        for (user, amount) in change where amount != 0 {
            try db.execute(
                sql: """
                    INSERT INTO member_balances (household_id, currency, user_id, net) VALUES (?, ?, ?, ?)
                    ON CONFLICT (household_id, currency, user_id) DO UPDATE SET net = net + excluded.net
                    """,
                arguments: [householdID, currency, user, amount])
        }
        try db.execute(
            sql: "DELETE FROM member_balances WHERE household_id = ? AND currency = ? AND net = 0",
            arguments: [householdID, currency])
    }

    static func requireMembers(_ ids: [String], in members: [String]) throws {
        guard ids.allSatisfy(members.contains) else {
            throw Problem.invalidField("members", "everyone named must be a member of the household.")
        }
    }

    static func insertShares(_ db: Database, _ billID: String, _ shares: [String: Int]) throws {
        for (user, amount) in shares {
            try db.execute(
                sql: "INSERT INTO bill_shares (bill_id, user_id, amount) VALUES (?, ?, ?)",
                arguments: [billID, user, amount])
        }
    }

    static func shares(_ db: Database, _ billID: String) throws -> [String: Int] {
        try Row.fetchAll(db, sql: "SELECT user_id, amount FROM bill_shares WHERE bill_id = ?", arguments: [billID])
            .reduce(into: [:]) { $0[$1["user_id"]] = $1["amount"] }
    }
}
