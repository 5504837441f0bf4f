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
            guard
                try BillRow.filter(key: bill.id).filter(Column("household_id") == bill.householdId).fetchCount(db) == 1
            else {
                throw Problem.notFound("The bill")
            }
            try bill.update(db)
            try db.execute(sql: "DELETE FROM bill_shares WHERE bill_id = ?", arguments: [bill.id])
            try Self.insertShares(db, bill.id, shares)
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
            try Self.record(db, payment.householdId, "payment", payment.fromId, "paid a roommate", payment.createdAt)
        }
    }

    /// Each member's net balance per currency: what they paid (bills, payments made) minus what they owe
    /// (their shares, payments received). Every currency sums to zero.
    func balances(of householdID: String, asMember userID: String) async throws -> (
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

    private static func requireMembers(_ ids: [String], in members: [String]) throws {
        guard ids.allSatisfy(members.contains) else {
            throw Problem.invalidField("members", "everyone named must be a member of the household.")
        }
    }

    private static func insertShares(_ db: Database, _ billID: String, _ shares: [String: Int]) throws {
        for (user, amount) in shares {
            try db.execute(
                sql: "INSERT INTO bill_shares (bill_id, user_id, amount) VALUES (?, ?, ?)",
                arguments: [billID, user, amount])
        }
    }

    private static func shares(_ db: Database, _ billID: String) throws -> [String: Int] {
        try Row.fetchAll(db, sql: "SELECT user_id, amount FROM bill_shares WHERE bill_id = ?", arguments: [billID])
            .reduce(into: [:]) { $0[$1["user_id"]] = $1["amount"] }
    }
}
