import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    func createRecurringBill(
        _ recurring: RecurringBill, id: String, in householdID: String, by userID: String, now: Date
    )
        async throws -> RecurringBillRecord
    {
        try await write { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let record = try recurring.record(
                id: id, in: householdID, by: userID, members: members.map(\.userId),
                today: LocalDay(now, in: TimeZone(identifier: household.timeZone) ?? .gmt), now: now)
            try record.insert(db)
            return record
        }
    }

    func replaceRecurringBill(
        _ id: String, in householdID: String, with recurring: RecurringBill, by userID: String, now: Date
    ) async throws -> RecurringBillRecord {
        try await write { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let old = try Self.recurringBill(db, id, householdID)
            guard RecurringBill.mayChange(old, by: userID, admin: household.createdBy) else {
                throw HouseholdError.notRecurringBillOwner(action: "change it")
            }
            let record = try recurring.replacing(
                old, members: members.map(\.userId),
                today: LocalDay(now, in: TimeZone(identifier: household.timeZone) ?? .gmt), now: now)
            try record.update(db)
            return record
        }
    }

    func stopRecurringBill(_ id: String, in householdID: String, by userID: String, now: Date) async throws
        -> RecurringBillRecord
    {
        try await write { db in
            let (household, _) = try Self.household(db, householdID, asMember: userID)
            var record = try Self.recurringBill(db, id, householdID)
            guard RecurringBill.mayChange(record, by: userID, admin: household.createdBy) else {
                throw HouseholdError.notRecurringBillOwner(action: "stop it")
            }
            if record.stoppedAt == nil {
                (record.stoppedAt, record.updatedAt) = (now, now)
                try record.update(db)
            }
            return record
        }
    }

    func recurringBill(_ id: String, in householdID: String, asMember userID: String) async throws
        -> RecurringBillRecord
    {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Self.recurringBill(db, id, householdID)
        }
    }

    func recurringBills(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [RecurringBillRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Self.newestFirst(
                RecurringBillRecord.filter(sql: "household_id = ?", arguments: [householdID]), after: cursor,
                limit: limit
            ).fetchAll(db)
        }
    }

    func recurringBillsToMake(now: Date, limit: Int) async throws -> [(id: String, householdID: String)] {
        try await read { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT id, household_id FROM recurring_bills WHERE stopped_at IS NULL AND next_on <= ?
                        ORDER BY next_on, id LIMIT ?
                        """),
                arguments: [LocalDay(now, in: .gmt).adding(days: 1).description, limit]
            ).map { ($0["id"], $0["household_id"]) }
        }
    }

    func makeRecurringBill(
        _ id: String, in householdID: String, now: Date, notices: ChangeNotices<MadeRecurringBill?>?
    ) async throws -> MadeRecurringBill? {
        try await write(reporting: notices) { db in
            guard let household = try HouseholdRecord.fetchOne(db, key: householdID),
                var record = try RecurringBillRecord.fetchOne(db, key: id), record.householdId == householdID,
                record.stoppedAt == nil, let nextOn = LocalDay(record.nextOn)
            else { return nil }
            let today = LocalDay(now, in: TimeZone(identifier: household.timeZone) ?? .gmt)
            let (make, following) = RecurringBill.schedule(of: record).due(nextOn: nextOn, today: today)
            guard let make else { return nil }
            record.nextOn = following.description
            try record.update(db)
            let draft = try RecurringBill.draft(of: record)
            let billID = UUID().uuidString.lowercased()
            // A member named in it who left: the day is claimed and no bill is made (it would not divide).
            let shares = try? draft.divide(among: try Self.allMembers(db, householdID).map(\.userId), seed: billID)
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO recurring_bill_runs (household_id, recurring_bill_id, day, bill_id, made_at)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [householdID, id, make.description, shares == nil ? nil : billID, now])
            guard db.changesCount > 0, let shares else { return nil }
            let bill = BillRecord(
                id: billID, householdId: householdID, description: draft.description, amount: draft.amount,
                currency: draft.currency, payerId: draft.payerID ?? record.createdBy, splitKind: draft.split.kind,
                createdBy: record.createdBy, idempotencyKey: nil, createdAt: now, updatedAt: now,
                category: draft.category)
            // A recurring bill keeps a single payer.
            try Self.insertBill(db, StoredBill(bill: bill, shares: shares), now: now)
            return MadeRecurringBill(templateID: id, day: make.description, bill: bill)
        }
    }

    /// The household's recurring bill `id`; 404 when there is none.
    static func recurringBill(_ db: Database, _ id: String, _ householdID: String) throws -> RecurringBillRecord {
        guard let record = try RecurringBillRecord.fetchOne(db, key: id), record.householdId == householdID else {
            throw HouseholdError.notFound("The recurring bill")
        }
        return record
    }
}
