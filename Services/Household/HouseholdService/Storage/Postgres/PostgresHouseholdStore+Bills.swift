import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func createBill(
        _ draft: BillDraft, id: String, in householdID: String, by userID: String, idempotencyKey: String?, now: Date,
        notices: ChangeNotices<BillAdded>?
    ) async throws -> (StoredBill, created: Bool) {
        do {
            // Behind the household's lock a retry with the same key, on any replica, finds the bill first made.
            let created: (StoredBill, created: Bool) = try await write(locking: householdID) { db in
                let members = try await db.members(householdID, asMember: userID).map(\.userId)
                let shares = try draft.divide(among: members, seed: id)
                let paid = try draft.paid(byDefault: userID, members: members)
                if let idempotencyKey, let existing = try await db.bill(idempotencyKey, by: userID, in: householdID) {
                    return (try await db.stored(existing), false)
                }
                let bill = BillRecord(
                    id: id, householdId: householdID, description: draft.description, amount: draft.amount,
                    currency: draft.currency, payerId: BillPayers.principal(paid) ?? userID,
                    splitKind: draft.split.kind, createdBy: userID, idempotencyKey: idempotencyKey, createdAt: now,
                    updatedAt: now, category: draft.category)
                let stored = StoredBill(bill: bill, shares: shares, paid: paid)
                try await db.insertBill(stored, now: now)
                try await notices?.record(stored, in: db)
                return (stored, true)
            }
            if created.created { await notices?.committed(created.0) }
            return created
        } catch let error as PSQLError where error.isUniqueViolation && idempotencyKey != nil {
            // The unique index, should the lock ever be bypassed: the key's bill exists, answer it.
            return try await read { db in
                guard let idempotencyKey, let existing = try await db.bill(idempotencyKey, by: userID, in: householdID)
                else { throw error }
                return (try await db.stored(existing), false)
            }
        }
    }

    func replaceBill(_ billID: String, in householdID: String, with draft: BillDraft, by userID: String, now: Date)
        async throws -> StoredBill
    {
        try await write(locking: householdID) { db in
            let members = try await db.members(householdID, asMember: userID).map(\.userId)
            let old = try await db.stored(try await db.bill(billID, householdID))
            let shares = try draft.divide(among: members, seed: old.bill.id)
            let paid = try draft.paid(byDefault: old.bill.createdBy, members: members)
            guard old.bill.tripId == nil else { throw HouseholdError.billOfTrip }
            var bill = old.bill
            (bill.description, bill.amount, bill.currency) = (draft.description, draft.amount, draft.currency)
            (bill.payerId, bill.splitKind, bill.updatedAt) = (
                BillPayers.principal(paid) ?? old.bill.createdBy, draft.split.kind, now
            )
            bill.category = draft.category
            try await db.adjustBalances(old, sign: -1)
            try await db.update(bill)
            let replaced = StoredBill(bill: bill, shares: shares, paid: paid)
            try await db.replaceShares(replaced)
            return replaced
        }
    }

    func bill(_ billID: String, in householdID: String, asMember userID: String) async throws -> StoredBill {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.stored(try await db.bill(billID, householdID))
        }
    }

    func deleteBill(_ billID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await write(locking: householdID) { db in
            _ = try await db.members(householdID, asMember: userID)
            let bill = try await db.bill(billID, householdID)
            guard bill.tripId == nil else { throw HouseholdError.billOfTrip }
            try await db.adjustBalances(try await db.stored(bill), sign: -1)
            try await db.execute("DELETE FROM bills WHERE id = \(bill.id)")
            try await db.record(householdID, "bill_deleted", userID, "deleted the bill \(bill.description)", now)
        }
    }

    func bills(
        of householdID: String, asMember userID: String, category: String?,
        after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredBill] {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            let bills = try await db.namedRows(
                """
                SELECT \(unescaped: BillRecord.columns) FROM bills WHERE household_id = \(householdID)
                AND (\(category)::text IS NULL OR category = \(category))
                AND (\(cursor?.id)::text IS NULL
                    OR (created_at, id) < (\(cursor?.createdAt.storedMilliseconds), \(cursor?.id)))
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """
            ).map(BillRecord.init)
            return try await db.stored(bills)
        }
    }

    func expenseBills(
        of householdID: String, asMember userID: String, now: Date,
        months pick: @Sendable (_ thisMonth: Month) throws -> [Month]
    ) async throws -> (members: [String], months: [Month], bills: [ExpenseStatistics.BillShares]) {
        try await write(.repeatableRead) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let zone = TimeZone(identifier: household.timeZone) ?? .gmt
            let months = try pick(Month(LocalDay(now, in: zone)))
            let (start, end) = (
                months[0].firstDay.start(in: zone), months[months.count - 1].next.firstDay.start(in: zone)
            )
            var bills: [String: ExpenseStatistics.BillShares] = [:]
            for row in try await db.namedRows(
                """
                SELECT b.id, b.created_at, b.currency, b.category, b.payer_id, b.amount, s.user_id, s.amount AS share
                FROM bills b JOIN bill_shares s ON s.bill_id = b.id
                WHERE b.household_id = \(householdID) AND b.created_at >= \(start.storedMilliseconds)
                    AND b.created_at < \(end.storedMilliseconds)
                ORDER BY b.created_at, b.id
                """)
            {
                let id: String = try row.get("id")
                if bills[id] == nil {
                    bills[id] = .init(
                        month: Month(LocalDay(try row.date("created_at"), in: zone)), currency: try row.get("currency"),
                        category: try row.get("category"),
                        paid: [try row.get("payer_id"): try row.get("amount", as: Int.self)],
                        amount: try row.get("amount"), shares: [:])
                }
                bills[id]?.shares[try row.get("user_id")] = try row.get("share", as: Int.self)
            }
            // Bills that several paid: their payments in place of the single payer's.
            for (id, paid) in try await db.payers(of: Array(bills.keys)) { bills[id]?.paid = paid }
            return (members.map(\.userId), months, Array(bills.values))
        }
    }
}

extension PostgresHouseholdStore {
    func ledger(of householdID: String, asMember userID: String, limit: Int) async throws -> HouseholdLedger {
        try await write(.repeatableRead) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let bills = try await db.namedRows(
                """
                SELECT \(unescaped: BillRecord.columns) FROM bills WHERE household_id = \(householdID)
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """
            ).map(BillRecord.init).reversed()
            let stored = try await db.stored(Array(bills))
            let payments = try await db.namedRows(
                """
                SELECT id, household_id, from_id, to_id, amount, currency, created_at FROM payments
                WHERE household_id = \(householdID) ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """
            ).map {
                PaymentRecord(
                    id: try $0.get("id"), householdId: try $0.get("household_id"), fromId: try $0.get("from_id"),
                    toId: try $0.get("to_id"), amount: try $0.get("amount"), currency: try $0.get("currency"),
                    createdAt: try $0.date("created_at"))
            }.reversed()
            return HouseholdLedger(
                timeZone: household.timeZone, members: members.map(\.userId),
                bills: stored, payments: Array(payments))
        }
    }
}

extension PostgresSession {
    /// The household's bill `billID`; 404 when there is none.
    func bill(_ billID: String, _ householdID: String) async throws -> BillRecord {
        guard
            let row = try await namedRow(
                "SELECT \(unescaped: BillRecord.columns) FROM bills WHERE id = \(billID) AND household_id = \(householdID)"
            )
        else { throw HouseholdError.notFound("The bill") }
        return try BillRecord(row)
    }

    /// The bill `userID` made in the household under `idempotencyKey`, if any.
    func bill(_ idempotencyKey: String, by userID: String, in householdID: String) async throws -> BillRecord? {
        try await namedRow(
            """
            SELECT \(unescaped: BillRecord.columns) FROM bills
            WHERE household_id = \(householdID) AND created_by = \(userID) AND idempotency_key = \(idempotencyKey)
            """
        ).map(BillRecord.init)
    }

    /// Stores a new bill with its shares and payers, moves the balances and records it in the activity (as its
    /// creator's).
    func insertBill(_ stored: StoredBill, now: Date) async throws {
        let bill = stored.bill
        try await insert(bill)
        try await insertShares(stored)
        try await adjustBalances(stored, sign: 1)
        try await record(bill.householdId, "bill_added", bill.createdBy, "added the bill \(bill.description)", now)
    }

    func insert(_ bill: BillRecord) async throws {
        try await execute(
            """
            INSERT INTO bills (id, household_id, description, amount, currency, payer_id, split_kind, created_by,
                idempotency_key, created_at, updated_at, trip_id, category)
            VALUES (\(bill.id), \(bill.householdId), \(bill.description), \(bill.amount), \(bill.currency),
                \(bill.payerId), \(bill.splitKind), \(bill.createdBy), \(bill.idempotencyKey),
                \(bill.createdAt.storedMilliseconds), \(bill.updatedAt.storedMilliseconds), \(bill.tripId),
                \(bill.category))
            """)
    }

    func update(_ bill: BillRecord) async throws {
        try await execute(
            """
            UPDATE bills SET description = \(bill.description), amount = \(bill.amount), currency = \(bill.currency),
                payer_id = \(bill.payerId), split_kind = \(bill.splitKind),
                updated_at = \(bill.updatedAt.storedMilliseconds), category = \(bill.category)
            WHERE id = \(bill.id)
            """)
    }

    /// Stores the bill's shares and payers in place of its old ones and adds them to the balances (the caller took
    /// the old ones back first).
    func replaceShares(_ stored: StoredBill) async throws {
        try await execute("DELETE FROM bill_shares WHERE bill_id = \(stored.bill.id)")
        try await execute("DELETE FROM bill_payers WHERE bill_id = \(stored.bill.id)")
        try await insertShares(stored)
        try await adjustBalances(stored, sign: 1)
    }

    /// The shares, and the payers when several paid (a bill without `bill_payers` rows was paid by its payer alone).
    func insertShares(_ stored: StoredBill) async throws {
        let (bill, shares) = (stored.bill, stored.shares)
        let users = Array(shares.keys)
        try await execute(
            """
            INSERT INTO bill_shares (household_id, bill_id, user_id, amount)
            SELECT \(bill.householdId), \(bill.id), user_id, amount
            FROM unnest(\(users)::text[], \(users.map { Int64(shares[$0]!) })::bigint[]) AS s(user_id, amount)
            """)
        guard stored.paid.count > 1 else { return }
        let payers = Array(stored.paid.keys)
        try await execute(
            """
            INSERT INTO bill_payers (household_id, bill_id, user_id, amount)
            SELECT \(bill.householdId), \(bill.id), user_id, amount
            FROM unnest(\(payers)::text[], \(payers.map { Int64(stored.paid[$0]!) })::bigint[]) AS p(user_id, amount)
            """)
    }

    /// The bills with their shares and what each payer paid, in the same order.
    func stored(_ bills: [BillRecord]) async throws -> [StoredBill] {
        let ids = bills.map(\.id)
        let (shares, payers) = (try await shares(of: ids), try await payers(of: ids))
        return bills.map { StoredBill(bill: $0, shares: shares[$0.id] ?? [:], paid: payers[$0.id] ?? $0.paidAlone) }
    }

    func stored(_ bill: BillRecord) async throws -> StoredBill {
        try await stored([bill])[0]
    }

    /// What each payer paid, by bill id, of those bills that several paid.
    func payers(of billIDs: [String]) async throws -> [String: [String: Int]] {
        var paid: [String: [String: Int]] = [:]
        for row in try await namedRows(
            "SELECT bill_id, user_id, amount FROM bill_payers WHERE bill_id = ANY(\(billIDs))")
        {
            paid[try row.get("bill_id"), default: [:]][try row.get("user_id")] = try row.get("amount", as: Int.self)
        }
        return paid
    }

    func shares(_ billID: String) async throws -> [String: Int] {
        try await shares(of: [billID])[billID] ?? [:]
    }

    /// Each bill's shares, by bill id.
    func shares(of billIDs: [String]) async throws -> [String: [String: Int]] {
        var shares: [String: [String: Int]] = [:]
        for row in try await namedRows(
            "SELECT bill_id, user_id, amount FROM bill_shares WHERE bill_id = ANY(\(billIDs))")
        {
            shares[try row.get("bill_id"), default: [:]][try row.get("user_id")] = try row.get("amount")
        }
        return shares
    }
}
