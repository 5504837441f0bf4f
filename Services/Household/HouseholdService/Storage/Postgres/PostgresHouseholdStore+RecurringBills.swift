import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func createRecurringBill(
        _ recurring: RecurringBill, id: String, in householdID: String, by userID: String, now: Date
    )
        async throws -> RecurringBillRecord
    {
        try await write(locking: householdID) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let record = try recurring.record(
                id: id, in: householdID, by: userID, members: members.map(\.userId),
                today: LocalDay(now, in: TimeZone(identifier: household.timeZone) ?? .gmt), now: now)
            try await db.insert(record)
            return record
        }
    }

    func replaceRecurringBill(
        _ id: String, in householdID: String, with recurring: RecurringBill, by userID: String, now: Date
    ) async throws -> RecurringBillRecord {
        try await write(locking: householdID) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let old = try await db.recurringBill(id, householdID)
            guard RecurringBill.mayChange(old, by: userID, admin: household.createdBy) else {
                throw HouseholdError.notRecurringBillOwner(action: "change it")
            }
            let record = try recurring.replacing(
                old, members: members.map(\.userId),
                today: LocalDay(now, in: TimeZone(identifier: household.timeZone) ?? .gmt), now: now)
            try await db.update(record)
            return record
        }
    }

    func stopRecurringBill(_ id: String, in householdID: String, by userID: String, now: Date) async throws
        -> RecurringBillRecord
    {
        try await write(locking: householdID) { db in
            let (household, _) = try await db.household(householdID, asMember: userID)
            var record = try await db.recurringBill(id, householdID)
            guard RecurringBill.mayChange(record, by: userID, admin: household.createdBy) else {
                throw HouseholdError.notRecurringBillOwner(action: "stop it")
            }
            if record.stoppedAt == nil {
                (record.stoppedAt, record.updatedAt) = (now, now)
                try await db.update(record)
            }
            return record
        }
    }

    func recurringBill(_ id: String, in householdID: String, asMember userID: String) async throws
        -> RecurringBillRecord
    {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.recurringBill(id, householdID)
        }
    }

    func recurringBills(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [RecurringBillRecord] {
        try await write(.repeatableRead) { db in
            _ = try await db.members(householdID, asMember: userID)
            return try await db.namedRows(
                """
                SELECT \(unescaped: RecurringBillRecord.columns) FROM recurring_bills
                WHERE household_id = \(householdID) AND (\(cursor?.id)::text IS NULL
                    OR (created_at, id) < (\(cursor?.createdAt.storedMilliseconds), \(cursor?.id)))
                ORDER BY created_at DESC, id DESC LIMIT \(limit)
                """
            ).map(RecurringBillRecord.init)
        }
    }

    func recurringBillsToMake(now: Date, limit: Int) async throws -> [(id: String, householdID: String)] {
        try await read { db in
            try await db.namedRows(
                """
                SELECT id, household_id FROM recurring_bills
                WHERE stopped_at IS NULL AND next_on <= \(LocalDay(now, in: .gmt).adding(days: 1).description)
                ORDER BY next_on, id LIMIT \(limit)
                """
            ).map { (try $0.get("id"), try $0.get("household_id")) }
        }
    }

    func makeRecurringBill(
        _ id: String, in householdID: String, now: Date, notices: ChangeNotices<MadeRecurringBill?>?
    ) async throws -> MadeRecurringBill? {
        // Behind the household's lock; the day's row is the claim should two replicas get here one after the other.
        try await write(locking: householdID, reporting: notices) { db in
            guard
                let zone = try await db.namedRow("SELECT time_zone FROM households WHERE id = \(householdID)")?
                    .get("time_zone", as: String.self),
                var record = try await db.namedRow(
                    """
                    SELECT \(unescaped: RecurringBillRecord.columns) FROM recurring_bills
                    WHERE id = \(id) AND household_id = \(householdID) AND stopped_at IS NULL
                    """
                ).map(RecurringBillRecord.init),
                let nextOn = LocalDay(record.nextOn)
            else { return nil }
            let today = LocalDay(now, in: TimeZone(identifier: zone) ?? .gmt)
            let (make, following) = RecurringBill.schedule(of: record).due(nextOn: nextOn, today: today)
            guard let make else { return nil }
            record.nextOn = following.description
            try await db.update(record)
            let draft = try RecurringBill.draft(of: record)
            let billID = UUID().uuidString.lowercased()
            // A member named in it who left: the day is claimed and no bill is made (it would not divide).
            let shares = try? draft.divide(among: try await db.allMembers(householdID).map(\.userId), seed: billID)
            let claimed = try await db.execute(
                """
                INSERT INTO recurring_bill_runs (household_id, recurring_bill_id, day, bill_id, made_at)
                VALUES (\(householdID), \(id), \(make.description), \(shares == nil ? nil : billID),
                    \(now.storedMilliseconds))
                ON CONFLICT DO NOTHING RETURNING 1
                """)
            guard claimed > 0, let shares else { return nil }
            let bill = BillRecord(
                id: billID, householdId: householdID, description: draft.description, amount: draft.amount,
                currency: draft.currency, payerId: draft.payerID ?? record.createdBy, splitKind: draft.split.kind,
                createdBy: record.createdBy, idempotencyKey: nil, createdAt: now, updatedAt: now,
                category: draft.category)
            // A recurring bill keeps a single payer.
            try await db.insertBill(StoredBill(bill: bill, shares: shares), now: now)
            return MadeRecurringBill(templateID: id, day: make.description, bill: bill)
        }
    }
}

extension PostgresSession {
    /// The household's recurring bill `id`; 404 when there is none.
    func recurringBill(_ id: String, _ householdID: String) async throws -> RecurringBillRecord {
        guard
            let row = try await namedRow(
                """
                SELECT \(unescaped: RecurringBillRecord.columns) FROM recurring_bills
                WHERE id = \(id) AND household_id = \(householdID)
                """)
        else { throw HouseholdError.notFound("The recurring bill") }
        return try RecurringBillRecord(row)
    }

    func insert(_ record: RecurringBillRecord) async throws {
        try await execute(
            """
            INSERT INTO recurring_bills (id, household_id, created_by, description, amount, currency, payer_id, split,
                category, schedule_kind, schedule_value, next_on, stopped_at, created_at, updated_at)
            VALUES (\(record.id), \(record.householdId), \(record.createdBy), \(record.description), \(record.amount),
                \(record.currency), \(record.payerId), \(record.split), \(record.category), \(record.scheduleKind),
                \(record.scheduleValue), \(record.nextOn), \(record.stoppedAt?.storedMilliseconds),
                \(record.createdAt.storedMilliseconds), \(record.updatedAt.storedMilliseconds))
            """)
    }

    func update(_ record: RecurringBillRecord) async throws {
        try await execute(
            """
            UPDATE recurring_bills SET description = \(record.description), amount = \(record.amount),
                currency = \(record.currency), payer_id = \(record.payerId), split = \(record.split),
                category = \(record.category), schedule_kind = \(record.scheduleKind),
                schedule_value = \(record.scheduleValue), next_on = \(record.nextOn),
                stopped_at = \(record.stoppedAt?.storedMilliseconds),
                updated_at = \(record.updatedAt.storedMilliseconds)
            WHERE id = \(record.id)
            """)
    }
}

extension RecurringBillRecord {
    static let columns = """
        id, household_id, created_by, description, amount, currency, payer_id, split, category, schedule_kind, \
        schedule_value, next_on, stopped_at, created_at, updated_at
        """

    init(_ row: PostgresRandomAccessRow) throws {
        self.init(
            id: try row.get("id"), householdId: try row.get("household_id"), createdBy: try row.get("created_by"),
            description: try row.get("description"), amount: try row.get("amount"), currency: try row.get("currency"),
            payerId: try row.get("payer_id"), split: try row.get("split"), category: try row.get("category"),
            scheduleKind: try row.get("schedule_kind"), scheduleValue: try row.get("schedule_value"),
            nextOn: try row.get("next_on"), stoppedAt: try row.optionalDate("stopped_at"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
    }
}
