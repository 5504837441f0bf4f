import Foundation
import PlatformKit

/// A recurring bill as a member asks for it: the bill to make each time, its schedule and its first day.
struct RecurringBill: Sendable, Equatable {
    var draft: BillDraft
    var schedule: BillSchedule
    /// The first day it may be made; today in the household's zone when nil.
    var startOn: LocalDay?

    /// The template to store: checked against the members (as each bill will be), its next day the schedule's first
    /// on or after `startOn` (today by default, never earlier).
    func record(
        id: String, in householdID: String, by userID: String, members: [String], today: LocalDay, now: Date
    ) throws -> RecurringBillRecord {
        _ = try draft.divide(among: members, seed: id)
        let start = startOn ?? today
        guard start >= today else { throw HouseholdError.invalidField("schedule.startOn", "must not be in the past.") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let split = String(decoding: try encoder.encode(draft.split), as: UTF8.self)
        let (kind, value) = schedule.stored
        return RecurringBillRecord(
            id: id, householdId: householdID, createdBy: userID, description: draft.description, amount: draft.amount,
            currency: draft.currency, payerId: draft.payerID, split: split, category: draft.category,
            scheduleKind: kind, scheduleValue: value, nextOn: schedule.first(onOrAfter: start).description,
            stoppedAt: nil, createdAt: now, updatedAt: now)
    }

    /// `record` changed to this bill and schedule (its creator and id kept); stopped stays stopped.
    func replacing(_ record: RecurringBillRecord, members: [String], today: LocalDay, now: Date) throws
        -> RecurringBillRecord
    {
        var changed = try self.record(
            id: record.id, in: record.householdId, by: record.createdBy, members: members, today: today, now: now)
        (changed.createdAt, changed.stoppedAt) = (record.createdAt, record.stoppedAt)
        return changed
    }

    /// The bill each occurrence makes.
    static func draft(of record: RecurringBillRecord) throws -> BillDraft {
        BillDraft(
            description: record.description, amount: record.amount, currency: record.currency,
            payerID: record.payerId ?? record.createdBy,
            split: try JSONDecoder().decode(BillDraft.Split.self, from: Data(record.split.utf8)),
            category: record.category)
    }

    static func schedule(of record: RecurringBillRecord) -> BillSchedule {
        BillSchedule(kind: record.scheduleKind, value: record.scheduleValue)
    }

    /// Its creator or the household's admin may change or stop it.
    static func mayChange(_ record: RecurringBillRecord, by userID: String, admin: String) -> Bool {
        userID == record.createdBy || userID == admin
    }
}

/// A bill the schedule of a recurring bill made, with what the payer's notice needs.
struct MadeRecurringBill: Sendable {
    var templateID: String
    var day: String
    var bill: BillRecord
}
