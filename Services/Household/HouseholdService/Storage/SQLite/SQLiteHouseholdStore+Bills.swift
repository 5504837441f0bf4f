import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// Divides and stores a new bill; a retry with the same idempotency key returns the bill first made.
    func createBill(
        _ draft: BillDraft, id: String, in householdID: String, by userID: String, idempotencyKey: String?, now: Date,
        notices: ChangeNotices<BillAdded>?
    ) async throws -> (StoredBill, created: Bool) {
        let created: (StoredBill, created: Bool) = try await write { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            let shares = try draft.divide(among: members, seed: id)
            let paid = try draft.paid(byDefault: userID, members: members)
            if let idempotencyKey,
                let existing = try BillRecord.filter(
                    BillRecord.Columns.householdId == householdID && BillRecord.Columns.createdBy == userID
                        && BillRecord.Columns.idempotencyKey == idempotencyKey
                ).fetchOne(db)
            {
                return (try Self.stored(db, existing), false)
            }
            let bill = BillRecord(
                id: id, householdId: householdID, description: draft.description, amount: draft.amount,
                currency: draft.currency, payerId: BillPayers.principal(paid) ?? userID, splitKind: draft.split.kind,
                createdBy: userID, idempotencyKey: idempotencyKey, createdAt: now, updatedAt: now,
                category: draft.category)
            let stored = StoredBill(bill: bill, shares: shares, paid: paid)
            try Self.insertBill(db, stored, now: now)
            try notices?.record(stored, in: db)
            return (stored, true)
        }
        if created.created { await notices?.committed(created.0) }
        return created
    }

    /// Replaces a bill's fields, shares and payers (any member may correct a bill); balances follow at once.
    func replaceBill(_ billID: String, in householdID: String, with draft: BillDraft, by userID: String, now: Date)
        async throws -> StoredBill
    {
        try await write { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            let old = try Self.stored(db, try Self.bill(db, billID, householdID))
            let shares = try draft.divide(among: members, seed: old.bill.id)
            let paid = try draft.paid(byDefault: old.bill.createdBy, members: members)
            guard old.bill.tripId == nil else { throw HouseholdError.billOfTrip }
            var bill = old.bill
            (bill.description, bill.amount, bill.currency) = (draft.description, draft.amount, draft.currency)
            (bill.payerId, bill.splitKind, bill.updatedAt) = (
                BillPayers.principal(paid) ?? old.bill.createdBy, draft.split.kind, now
            )
            bill.category = draft.category
            try Self.adjustBalances(db, old, sign: -1)
            try bill.update(db)
            let replaced = StoredBill(bill: bill, shares: shares, paid: paid)
            try Self.replaceShares(db, replaced)
            return replaced
        }
    }

    func bill(_ billID: String, in householdID: String, asMember userID: String) async throws -> StoredBill {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Self.stored(db, try Self.bill(db, billID, householdID))
        }
    }

    func deleteBill(_ billID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            let bill = try Self.bill(db, billID, householdID)
            guard bill.tripId == nil else { throw HouseholdError.billOfTrip }
            try Self.adjustBalances(db, try Self.stored(db, bill), sign: -1)
            try bill.delete(db)
            try Self.record(db, householdID, "bill_deleted", userID, "deleted the bill \(bill.description)", now)
        }
    }

    /// Bills, newest first, after `cursor` (createdAt, id), with their shares; only those of `category` when given.
    func bills(
        of householdID: String, asMember userID: String, category: String?,
        after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredBill] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            var bills = BillRecord.filter(BillRecord.Columns.householdId == householdID)
            if let category { bills = bills.filter(BillRecord.Columns.category == category) }
            let rows = try Self.newestFirst(bills, after: cursor, limit: limit).fetchAll(db)
            return try rows.map { try Self.stored(db, $0) }
        }
    }

    /// Stores a new bill with its shares and payers, moves the balances and records it in the activity (as its
    /// creator's).
    static func insertBill(_ db: Database, _ stored: StoredBill, now: Date) throws {
        let bill = stored.bill
        try bill.insert(db)
        try insertShares(db, stored)
        try adjustBalances(db, stored, sign: 1)
        try record(db, bill.householdId, "bill_added", bill.createdBy, "added the bill \(bill.description)", now)
    }

    /// The household's bill `billID`; 404 when there is none.
    static func bill(_ db: Database, _ billID: String, _ householdID: String) throws -> BillRecord {
        guard let bill = try BillRecord.fetchOne(db, key: billID), bill.householdId == householdID else {
            throw HouseholdError.notFound("The bill")
        }
        return bill
    }

    /// Stores the bill's shares and payers in place of its old ones and adds them to the balances (the caller took
    /// the old ones back first).
    static func replaceShares(_ db: Database, _ stored: StoredBill) throws {
        try db.execute(sql: "DELETE FROM bill_shares WHERE bill_id = ?", arguments: [stored.bill.id])
        try db.execute(sql: "DELETE FROM bill_payers WHERE bill_id = ?", arguments: [stored.bill.id])
        try insertShares(db, stored)
        try adjustBalances(db, stored, sign: 1)
    }

    /// The shares, and the payers when several paid (a bill without `bill_payers` rows was paid by its payer alone).
    static func insertShares(_ db: Database, _ stored: StoredBill) throws {
        for (user, amount) in stored.shares {
            try db.execute(
                sql: "INSERT INTO bill_shares (bill_id, user_id, amount) VALUES (?, ?, ?)",
                arguments: [stored.bill.id, user, amount])
        }
        for (user, amount) in stored.paid where stored.paid.count > 1 {
            try db.execute(
                sql: "INSERT INTO bill_payers (bill_id, user_id, amount) VALUES (?, ?, ?)",
                arguments: [stored.bill.id, user, amount])
        }
    }

    static func shares(_ db: Database, _ billID: String) throws -> [String: Int] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT user_id, amount FROM bill_shares WHERE bill_id = ?"), arguments: [billID]
        )
        .reduce(into: [:]) { $0[$1["user_id"]] = $1["amount"] }
    }

    /// The bill with its shares and what each payer paid.
    static func stored(_ db: Database, _ bill: BillRecord) throws -> StoredBill {
        let paid: [String: Int] = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT user_id, amount FROM bill_payers WHERE bill_id = ?"), arguments: [bill.id]
        )
        .reduce(into: [:]) { $0[$1["user_id"]] = $1["amount"] }
        return StoredBill(bill: bill, shares: try shares(db, bill.id), paid: paid.isEmpty ? bill.paidAlone : paid)
    }
}

extension SQLiteHouseholdStore {
    /// The household's bills in the months `months` picks (given this month in the household's zone), each with
    /// its month in that zone and every member's share; with the current members.
    func expenseBills(
        of householdID: String, asMember userID: String, now: Date,
        months pick: @Sendable (_ thisMonth: Month) throws -> [Month]
    ) async throws -> (members: [String], months: [Month], bills: [ExpenseStatistics.BillShares]) {
        try await read { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let zone = TimeZone(identifier: household.timeZone) ?? .gmt
            let months = try pick(Month(LocalDay(now, in: zone)))
            let (start, end) = (
                months[0].firstDay.start(in: zone), months[months.count - 1].next.firstDay.start(in: zone)
            )
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT b.id, b.created_at, b.currency, b.category, b.payer_id, b.amount, s.user_id,
                            s.amount AS share
                        FROM bills b JOIN bill_shares s ON s.bill_id = b.id
                        WHERE b.household_id = ? AND b.created_at >= ? AND b.created_at < ?
                        ORDER BY b.created_at, b.id
                        """), arguments: [householdID, start, end])
            var bills: [String: ExpenseStatistics.BillShares] = [:]
            for row in rows {
                let id: String = row["id"]
                let createdAt: Date = row["created_at"]
                bills[
                    id,
                    default: .init(
                        month: Month(LocalDay(createdAt, in: zone)), currency: row["currency"],
                        category: row["category"], paid: [row["payer_id"]: row["amount"]], amount: row["amount"],
                        shares: [:])
                ].shares[row["user_id"]] = row["share"]
            }
            // Bills that several paid: their payments in place of the single payer's.
            var several: [String: [String: Int]] = [:]
            for row in try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT p.bill_id, p.user_id, p.amount FROM bill_payers p JOIN bills b ON b.id = p.bill_id
                        WHERE b.household_id = ? AND b.created_at >= ? AND b.created_at < ?
                        """), arguments: [householdID, start, end])
            {
                several[row["bill_id"], default: [:]][row["user_id"]] = row["amount"]
            }
            for (id, paid) in several { bills[id]?.paid = paid }
            return (members.map(\.userId), months, Array(bills.values))
        }
    }
}

extension SQLiteHouseholdStore {
    /// The newest `limit` bills and the newest `limit` payments, each oldest first (the CSV export).
    func ledger(of householdID: String, asMember userID: String, limit: Int) async throws -> HouseholdLedger {
        try await read { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let bills = try BillRecord.filter(BillRecord.Columns.householdId == householdID)
                .order(sql: "created_at DESC, id DESC").limit(limit).fetchAll(db).reversed()
            let payments = try PaymentRecord.filter(PaymentRecord.Columns.householdId == householdID)
                .order(sql: "created_at DESC, id DESC").limit(limit).fetchAll(db).reversed()
            return HouseholdLedger(
                timeZone: household.timeZone, members: members.map(\.userId),
                bills: try bills.map { try Self.stored(db, $0) }, payments: Array(payments))
        }
    }
}
