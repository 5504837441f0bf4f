import Foundation
import PlatformKit
import ServiceKit

/// The household service's storage, whichever database keeps it: SQLite through GRDB (``SQLiteHouseholdStore``, the
/// default) or PostgreSQL through PostgresNIO (``PostgresHouseholdStore``, when `DATABASE_URL` names one). Controllers,
/// jobs and commands see only this. Each operation is one transaction, and every change that belongs in the activity
/// feed writes its activity row in that same transaction. Operations acting for a member check the membership inside
/// their transaction (404 "The household" for anyone else).
/// A household's money as the CSV export writes it: its newest bills (with their shares) and payments, each oldest
/// first, its time zone and current members.
struct HouseholdLedger: Sendable {
    var timeZone: String
    var members: [String]
    var bills: [StoredBill]
    var payments: [PaymentRecord]
}

/// A chore's due reminder, claimed: whom to remind of what.
struct ChoreReminder: Sendable, Equatable {
    var householdID: String
    var choreID: String
    var choreName: String
    var assigneeID: String
    var dueOn: String
}

/// A bill with each member's share and what each payer paid.
struct StoredBill: Sendable {
    var bill: BillRecord
    var shares: [String: Int]
    /// Payer -> amount paid, adding up to the bill's amount: one entry (`bill.payerId`) unless several paid.
    var paid: [String: Int]
}

/// A change just stored and the household's members in its transaction: what the change's notices and live events
/// are built from (``ChangeNotices``), so they name those who were members when it committed.
struct HouseholdChange<Value: Sendable>: Sendable {
    var value: Value
    var members: [String]
}

/// A chore as stored, the members (in joining order) and today in the household's zone.
typealias ChoreSaved = (ChoreRecord, members: [String], today: LocalDay)

/// A completion, its chore as it now stands, the members and the day it was done.
typealias ChoreCompleted = (CompletionRecord, ChoreRecord, members: [String], today: LocalDay)

/// A household just joined, with its members as they now are.
typealias Joined = (HouseholdRecord, [MemberRecord])

/// A trip as stored, the members, and whether this call made it (a retry with its key did not).
typealias TripCompleted = (StoredTrip, members: [String], created: Bool)

/// A revised trip and the members.
typealias TripEdited = (StoredTrip, members: [String])

/// Payment reminders sent, with what each debtor owes, and those skipped until the date given.
typealias Reminded = (sent: [String: Owed], tooSoon: [String: Date])

/// Month-end reminders claimed: to whom, in which household and month, and what they owe.
typealias MonthEndClaims = [(householdID: String, month: String, debtor: String, owes: Owed)]

/// A shopper's trip under way, the members, and whether this call started it.
typealias ShoppingStart = (CurrentTrip, members: [String], started: Bool)

/// A grocery item as it was and as it is after a change.
typealias GroceryEdit = (before: GroceryItemRecord, after: GroceryItemRecord)

/// A bill just stored: what the notice of a new bill is built from.
typealias BillAdded = StoredBill

extension StoredBill {
    /// A bill its payer paid alone (a shopping trip's, a recurring bill's).
    init(bill: BillRecord, shares: [String: Int]) {
        self.init(bill: bill, shares: shares, paid: bill.paidAlone)
    }

    /// What the bill adds to (`sign` 1) or takes back from (-1) the running balances: each payer's net rises by what
    /// they paid, each member's falls by their share.
    func balanceChange(sign: Int) -> [String: Int] {
        var change = shares.mapValues { -$0 * sign }
        for (payer, amount) in paid { change[payer, default: 0] += amount * sign }
        return change
    }
}

protocol HouseholdStore: ServiceStore {
    // MARK: Households and invitations

    /// The members of a household the caller belongs to, oldest first; a 404 for anyone else, so a
    /// household's existence is not revealed to outsiders.
    func members(of householdID: String, asMember userID: String) async throws -> [MemberRecord]

    func household(of userID: String) async throws -> (HouseholdRecord, [MemberRecord])?

    func household(id: String, asMember userID: String) async throws -> (HouseholdRecord, [MemberRecord])

    func createHousehold(_ household: HouseholdRecord) async throws

    /// Invites a user to the inviter's household; returns the household, for the invitation's notice. Whether the
    /// invitee is in a household already is not checked: that would tell anyone who can name a user. They may
    /// decline, or accept once they left theirs (``respond(to:as:accept:now:notices:)``). `notices` reports it.
    @discardableResult
    func invite(_ invitation: InvitationRecord, notices: ChangeNotices<HouseholdRecord>?) async throws
        -> HouseholdRecord

    func pendingInvitations(for userID: String) async throws -> [(InvitationRecord, HouseholdRecord)]

    /// Accepts or declines an invitation addressed to `userID`; on acceptance returns the household joined,
    /// with its members as they now are. `notices` reports it.
    func respond(
        to invitationID: String, as userID: String, accept: Bool, now: Date, notices: ChangeNotices<Joined?>?
    ) async throws -> Joined?

    // MARK: Members

    /// Removes `userID` from the household (leaving, or removed by its creator), hands their chores to
    /// the next member, and deletes a household nobody is left in. Returns the members who remain, which `notices`
    /// reports.
    func removeMember(
        _ userID: String, from householdID: String, by actorID: String, now: Date, notices: ChangeNotices<[String]>?
    ) async throws -> [String]

    /// The household's latest events, newest first.
    func activity(of householdID: String, asMember userID: String, limit: Int) async throws -> [ActivityRecord]

    // MARK: Chores

    /// The household, its members, its chores (soonest due first) and the household's revision, in one read.
    func chores(of householdID: String, asMember userID: String) async throws -> (
        HouseholdRecord, [MemberRecord], [ChoreRecord], revision: Int64
    )

    /// The revision of a household the caller belongs to (404 for anyone else) and its time zone, in one statement:
    /// a kept chore list is answered after this read alone. Triggers bump the revision on every change to the
    /// household's chores, its members or its time zone (SQLite's migration v7, PostgreSQL's `v1`).
    func choreListRevision(of householdID: String, asMember userID: String) async throws -> (
        revision: Int64, timeZone: String
    )

    /// The household's custom chores, kept for reuse.
    func customChores(of householdID: String, asMember userID: String) async throws -> [(name: String, points: Int)]

    /// Adds the chore `make` builds from the members (in joining order) and today in the household's zone; a
    /// name that is not in the catalogue is kept as a custom chore for reuse. Returns what `make` was given.
    func createChore(
        in householdID: String, by userID: String, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreSaved>>?,
        _ make: @Sendable (_ members: [String], _ today: LocalDay) throws -> ChoreRecord
    ) async throws -> ChoreSaved

    /// Applies an edit to a chore of the caller's household, given the members and today in its zone.
    func updateChore(
        _ choreID: String, in householdID: String, by userID: String, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreSaved>>?,
        _ change: @Sendable (inout ChoreRecord, _ members: [String], _ today: LocalDay) throws -> Void
    ) async throws -> ChoreSaved

    /// Deletes a chore of the caller's household; `notices` reports the chore as it was.
    func deleteChore(
        _ choreID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<ChoreRecord>>?
    ) async throws

    /// Records a completion and schedules the next occurrence: from the completion day when it is late,
    /// to the member the chore's assignment picks. The day is today in the household's zone. Returns the
    /// completion, the chore as it now stands, the members and that day.
    func complete(
        _ choreID: String, in householdID: String, by userID: String, note: String?, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreCompleted>>?
    ) async throws -> ChoreCompleted

    /// Completion history, newest first (by day, then the instant it was recorded, then id, so two completions of
    /// one day keep their order from page to page), filtered, after `cursor` (completedOn, completedAt, id).
    func completions(
        of householdID: String, asMember userID: String, member: String?, choreID: String?, from: LocalDay?,
        to: LocalDay?, after cursor: (day: String, completedAt: Date, id: String)?, limit: Int
    ) async throws -> [CompletionRecord]

    /// Counts and points per member and chore over `from ... to` (by default the 30 days up to today in the
    /// household's zone), with the members, in one read.
    func statistics(
        of householdID: String, asMember userID: String, from: LocalDay?, to: LocalDay?, clock: WallClock
    ) async throws -> (members: [MemberRecord], from: LocalDay, to: LocalDay, rows: [ChoreTally])

    // MARK: Notes

    /// Notes that have not expired, pinned first, newest first.
    func notes(of householdID: String, asMember userID: String, now: Date) async throws -> [NoteRecord]

    /// Posts a note that expires after `expiresInHours` or `expiresInDays` (the household's default when both
    /// are nil), with a photo or without (a photo-only note has empty text); returns it with the household's
    /// members (for the notice); `notices` reports it, as every note change below.
    func createNote(
        id: String, in householdID: String, by userID: String, text: String, photo: StoredBytes?,
        pinned: Bool, expiresInDays: Int?, expiresInHours: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord

    /// Pins or unpins a note that has not expired; only its author may (a pin decides what everyone sees first).
    func pinNote(
        _ noteID: String, in householdID: String, by userID: String, pinned: Bool, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord

    /// Changes the text and or the timer of a note that has not expired (a new timer counts from now); only its
    /// author may. Text may be empty only on a note with a photo.
    func editNote(
        _ noteID: String, in householdID: String, by userID: String, text: String?, lifetimeHours: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord

    /// Deletes a note that has not expired; only its author may.
    func deleteNote(
        _ noteID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws

    /// Attaches or replaces the photo of a note that has not expired; only its author may. Returns the note.
    @discardableResult
    func setPhoto(
        of noteID: String, in householdID: String, by userID: String, _ photo: StoredBytes, now: Date,
        notices: ChangeNotices<HouseholdChange<NoteRecord>>?
    ) async throws -> NoteRecord

    /// The photo of a note that has not expired; nil when it has none.
    func photo(of noteID: String, in householdID: String, asMember userID: String, now: Date) async throws
        -> StoredBytes?

    // MARK: Events

    /// Adds an event from `draft`, the creator answering yes; returns it with the household's members, for the notice.
    /// `notices` reports it, as every event change below.
    func createEvent(
        _ draft: EventRules.Draft, id: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> (StoredEvent, members: [String])

    /// Upcoming events (not yet finished at `now`: soonest start first) or past ones (latest start first), after
    /// `cursor` (startsAt, id); cancelled ones among them, marked.
    func events(
        of householdID: String, asMember userID: String, past: Bool, now: Date,
        after cursor: (startsAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredEvent]

    func event(_ eventID: String, in householdID: String, asMember userID: String) async throws -> StoredEvent

    /// Applies `change` to an event that is not cancelled; only its creator may (``EventRules/apply(_:to:now:)``).
    func editEvent(
        _ eventID: String, in householdID: String, by userID: String, _ change: EventRules.Change, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> StoredEvent

    /// Cancels an event (its creator only); it stays listed as cancelled and sends no reminder. Returns it with the
    /// members, for the notice.
    func cancelEvent(
        _ eventID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> (StoredEvent, members: [String])

    /// Records a member's answer to an event that is not cancelled (a new answer replaces the last).
    func answer(
        _ eventID: String, in householdID: String, by userID: String, _ answer: EventRules.Answer, now: Date,
        notices: ChangeNotices<HouseholdChange<StoredEvent>>?
    ) async throws -> StoredEvent

    /// Events whose reminder is due at `now` (``EventRules/reminderDue(_:now:)``), at most `limit`, each with the
    /// members to remind; marks them sent in the same transaction, so of any number of jobs and replicas one
    /// sends each reminder once.
    /// `notices` reports the reminders claimed, so they are sent with their claim or not at all.
    func claimEventReminders(now: Date, limit: Int, notices: ChangeNotices<[ClaimedEventReminder]>?) async throws
        -> [ClaimedEventReminder]

    /// Chores whose due reminder is due at `now` (``ChoreDueRule``), assigned to a member and not done for that day,
    /// at most `limit`; marks each sent in the same transaction (a row per chore and due day), so of any number of
    /// jobs and replicas one sends it once.
    /// `notices` reports the reminders claimed.
    func claimChoreReminders(now: Date, limit: Int, notices: ChangeNotices<[ChoreReminder]>?) async throws
        -> [ChoreReminder]

    // MARK: Groceries

    /// My personal items (visible or not), oldest first.
    func personalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRecord]

    /// The communal list, oldest first.
    func communalGroceries(of householdID: String, asMember userID: String) async throws -> [GroceryItemRecord]

    /// The household list: communal and visible personal items merged by name.
    func householdGroceries(of householdID: String, asMember userID: String) async throws -> [Groceries.Line]

    /// Adds the item, `notices` reporting it.
    func addGrocery(_ item: GroceryItemRecord, notices: ChangeNotices<HouseholdChange<GroceryItemRecord>>?)
        async throws

    /// Changes an item: a personal one only by its owner, a communal one by any member; `notices` reports it.
    func changeGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        notices: ChangeNotices<HouseholdChange<GroceryEdit>>?,
        _ change: @Sendable (inout GroceryItemRecord) throws -> Void
    ) async throws -> GroceryEdit

    /// Deletes the item and returns what it was; `notices` reports it.
    @discardableResult
    func deleteGrocery(
        _ itemID: String, in householdID: String, by userID: String,
        notices: ChangeNotices<HouseholdChange<GroceryItemRecord>>?
    ) async throws -> GroceryItemRecord

    /// Item names from the household's grocery history (bought on its trips, and on its lists now; another
    /// member's hidden personal items excepted) that start with `prefix`, ignoring ASCII case; most used first,
    /// then alphabetically; at most `limit`.
    func grocerySuggestions(in householdID: String, asMember userID: String, prefix: String, limit: Int)
        async throws -> [(name: String, uses: Int)]

    // MARK: Shopping

    /// Starts my trip (or finds the one under way); `started` is false when one was already under way.
    func startShopping(
        in householdID: String, by userID: String, now: Date, notices: ChangeNotices<HouseholdChange<ShoppingStart>>?
    ) async throws -> ShoppingStart

    /// My trip under way, if any.
    func currentTrip(in householdID: String, of userID: String) async throws -> CurrentTrip?

    /// Ticks a line of the household list off my trip under way (or unticks it). The item must be one I see on
    /// the household list: communal, mine, or another member's that they show.
    func check(
        _ itemID: String, in householdID: String, by userID: String, checked: Bool, price: Int?, now: Date,
        notices: ChangeNotices<HouseholdChange<CheckedItem>>?
    ) async throws -> (CheckedItem, members: [String])

    // MARK: Trips

    /// Completes a shopping trip in one transaction: the picked lines of the household list (by merge key,
    /// with an optional price each) leave the lists, the trip goes into history, and its cost becomes a bill
    /// paid by the shopper. A retry with the same idempotency key returns the trip first made.
    func completeTrip(
        id: String, in householdID: String, by shopperID: String, total: Int, currency: String,
        picks requested: [(key: String, price: Int?)]?, idempotencyKey: String?, now: Date,
        notices: ChangeNotices<TripCompleted>?
    ) async throws -> TripCompleted

    /// Revises a completed trip (its shopper only): what was bought, prices, the total; the bill follows.
    func editTrip(
        _ tripID: String, in householdID: String, by userID: String, total: Int?, currency: String?,
        lines: [TripLine], now: Date, notices: ChangeNotices<TripEdited>?
    ) async throws -> TripEdited

    func trip(_ tripID: String, in householdID: String, asMember userID: String) async throws -> StoredTrip

    /// Trips, newest first, after `cursor` (createdAt, id).
    func trips(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws
        -> [StoredTrip]

    /// Attaches the receipt photo (the shopper only).
    func setReceipt(of tripID: String, in householdID: String, by userID: String, _ receipt: StoredBytes)
        async throws

    func receipt(of tripID: String, in householdID: String, asMember userID: String) async throws
        -> StoredBytes?

    // MARK: Bills

    /// Divides and stores a new bill; a retry with the same idempotency key returns the bill first made.
    func createBill(
        _ draft: BillDraft, id: String, in householdID: String, by userID: String, idempotencyKey: String?, now: Date,
        notices: ChangeNotices<BillAdded>?
    ) async throws -> (StoredBill, created: Bool)

    /// Replaces a bill's fields, shares and payers (any member may correct a bill); balances follow at once.
    func replaceBill(_ billID: String, in householdID: String, with draft: BillDraft, by userID: String, now: Date)
        async throws -> StoredBill

    func bill(_ billID: String, in householdID: String, asMember userID: String) async throws -> StoredBill

    func deleteBill(_ billID: String, in householdID: String, by userID: String, now: Date) async throws

    /// Bills, newest first, after `cursor` (createdAt, id), with their shares; only those of `category` when given.
    func bills(
        of householdID: String, asMember userID: String, category: String?,
        after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredBill]

    /// The household's bills in the months `months` picks (given this month in the household's zone), each with
    /// its month in that zone and every member's share; with the current members.
    func expenseBills(
        of householdID: String, asMember userID: String, now: Date,
        months pick: @Sendable (_ thisMonth: Month) throws -> [Month]
    ) async throws -> (members: [String], months: [Month], bills: [ExpenseStatistics.BillShares])

    /// The newest `limit` bills and the newest `limit` payments, each oldest first (the CSV export).
    func ledger(of householdID: String, asMember userID: String, limit: Int) async throws -> HouseholdLedger

    // MARK: Recurring bills

    /// Stores a recurring bill checked against the members (as each of its bills will be); 400 naming the field.
    func createRecurringBill(
        _ recurring: RecurringBill, id: String, in householdID: String, by userID: String, now: Date
    ) async throws -> RecurringBillRecord

    /// Changes a recurring bill (its creator or the household's admin); its next day follows the new schedule.
    func replaceRecurringBill(
        _ id: String, in householdID: String, with recurring: RecurringBill, by userID: String, now: Date
    ) async throws -> RecurringBillRecord

    /// Stops a recurring bill for good (its creator or the household's admin); the bills it made stay.
    func stopRecurringBill(_ id: String, in householdID: String, by userID: String, now: Date) async throws
        -> RecurringBillRecord

    func recurringBill(_ id: String, in householdID: String, asMember userID: String) async throws
        -> RecurringBillRecord

    /// The household's recurring bills, newest first, after `cursor` (createdAt, id).
    func recurringBills(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [RecurringBillRecord]

    /// Recurring bills that may be due at `now` somewhere (not stopped, next day at most tomorrow in UTC), at most
    /// `limit`, soonest first: the job then makes each in its own transaction.
    func recurringBillsToMake(now: Date, limit: Int) async throws -> [(id: String, householdID: String)]

    /// Makes the recurring bill's bill if its day has come in the household's zone (the latest missed day after
    /// downtime) and moves it to its next day, in one transaction that claims the day (a row per recurring bill and
    /// day), so of any number of jobs and replicas one makes it once. Nil when nothing was made.
    /// `notices` reports the bill made (nil when none was due).
    func makeRecurringBill(
        _ id: String, in householdID: String, now: Date, notices: ChangeNotices<MadeRecurringBill?>?
    ) async throws -> MadeRecurringBill?

    // MARK: BillImages

    func setImage(of billID: String, in householdID: String, by userID: String, _ image: StoredBytes, now: Date)
        async throws

    func image(of billID: String, in householdID: String, asMember userID: String) async throws -> StoredBytes?

    /// Removes the image; false when the bill had none.
    func deleteImage(of billID: String, in householdID: String, by userID: String) async throws -> Bool

    // MARK: Balances

    /// Records a payment between members (or former members settling here); `notices` reports it.
    func recordPayment(_ payment: PaymentRecord, notices: ChangeNotices<PaymentRecord>?) async throws

    /// Each member's net balance per currency: what they paid (bills, payments made) minus what they owe
    /// (their shares, payments received). Every currency sums to zero. Read from the running balances; a former
    /// member with a balance here reads them too.
    func balances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    )

    /// The same balances summed from every bill, share and payment (what the running balances must equal).
    func recomputedBalances(of householdID: String, asMember userID: String) async throws -> (
        members: [String], net: [String: [String: Int]]
    )

    // MARK: Reminders

    /// Records reminders from `creditor` to `debtors` (all who owe them when nil), at most one per debtor per
    /// `interval`, in one transaction so two quick taps cannot both send; `notices` reports those sent.
    func remind(
        in householdID: String, by creditor: String, debtors: [String]?, now: Date, interval: TimeInterval,
        notices: ChangeNotices<Reminded>?
    ) async throws -> Reminded

    /// Debtors whose month-end reminder is due at `now` (each by their own settings, in the household's zone) and
    /// was not sent yet this month, with what they owe; marks them sent in the same transaction, so each member is
    /// reminded once per household and month.
    /// `notices` reports the reminders claimed.
    func claimMonthEndReminders(now: Date, notices: ChangeNotices<MonthEndClaims>?) async throws -> MonthEndClaims

    /// My settings (the defaults until I change one).
    func settings(of userID: String) async throws -> MemberSettings

    /// Changes the given settings (an empty background goes back to the app's default) and returns them all.
    func changeSettings(
        of userID: String, reminderDaysBefore: Int?, reminderHour: Int?, boardBackground: String?, now: Date
    ) async throws -> MemberSettings

    func setPaymentHandles(of userID: String, in householdID: String, venmo: String?, paypal: String?, now: Date)
        async throws

    /// The members' handles (members without any are left out).
    func paymentHandles(in householdID: String, asMember userID: String) async throws
        -> [(userID: String, venmo: String?, paypal: String?)]

    /// The payee's handles and what I owe them in `currency` under the plan (0 when nothing).
    func paymentTarget(in householdID: String, from userID: String, to payee: String, currency: String) async throws
        -> (venmo: String?, paypal: String?, owed: Int)
}

extension HouseholdStore {
    /// The household's latest 30 events, newest first.
    func activity(of householdID: String, asMember userID: String) async throws -> [ActivityRecord] {
        try await activity(of: householdID, asMember: userID, limit: 30)
    }
}

extension HouseholdStore {
    /// Every category's bills, newest first.
    func bills(
        of householdID: String, asMember userID: String, after cursor: (createdAt: Date, id: String)?, limit: Int
    ) async throws -> [StoredBill] {
        try await bills(of: householdID, asMember: userID, category: nil, after: cursor, limit: limit)
    }

    /// ``claimEventReminders(now:limit:notices:)`` with no notices to record.
    func claimEventReminders(now: Date, limit: Int) async throws -> [ClaimedEventReminder] {
        try await claimEventReminders(now: now, limit: limit, notices: nil)
    }

    /// ``claimChoreReminders(now:limit:notices:)`` with no notices to record.
    func claimChoreReminders(now: Date, limit: Int) async throws -> [ChoreReminder] {
        try await claimChoreReminders(now: now, limit: limit, notices: nil)
    }

    /// ``makeRecurringBill(_:in:now:notices:)`` with no notices to record.
    func makeRecurringBill(_ id: String, in householdID: String, now: Date) async throws -> MadeRecurringBill? {
        try await makeRecurringBill(id, in: householdID, now: now, notices: nil)
    }

    /// ``claimMonthEndReminders(now:notices:)`` with no notices to record.
    func claimMonthEndReminders(now: Date) async throws -> MonthEndClaims {
        try await claimMonthEndReminders(now: now, notices: nil)
    }

    /// ``recordPayment(_:notices:)`` with no notices to record.
    func recordPayment(_ payment: PaymentRecord) async throws {
        try await recordPayment(payment, notices: nil)
    }

    /// ``invite(_:notices:)`` with no notices to record.
    @discardableResult
    func invite(_ invitation: InvitationRecord) async throws -> HouseholdRecord {
        try await invite(invitation, notices: nil)
    }

    /// ``respond(to:as:accept:now:notices:)`` with no notices to record.
    func respond(to invitationID: String, as userID: String, accept: Bool, now: Date) async throws -> Joined? {
        try await respond(to: invitationID, as: userID, accept: accept, now: now, notices: nil)
    }

    /// ``removeMember(_:from:by:now:notices:)`` with no notices to record.
    func removeMember(_ userID: String, from householdID: String, by actorID: String, now: Date) async throws
        -> [String]
    {
        try await removeMember(userID, from: householdID, by: actorID, now: now, notices: nil)
    }

    /// ``createChore(in:by:clock:notices:_:)`` with no notices to record.
    func createChore(
        in householdID: String, by userID: String, clock: WallClock,
        _ make: @Sendable (_ members: [String], _ today: LocalDay) throws -> ChoreRecord
    ) async throws -> ChoreSaved {
        try await createChore(in: householdID, by: userID, clock: clock, notices: nil, make)
    }

    /// ``deleteChore(_:in:by:now:notices:)`` with no notices to record.
    func deleteChore(_ choreID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await deleteChore(choreID, in: householdID, by: userID, now: now, notices: nil)
    }

    /// ``complete(_:in:by:note:clock:notices:)`` with no notices to record.
    func complete(_ choreID: String, in householdID: String, by userID: String, note: String?, clock: WallClock)
        async throws -> ChoreCompleted
    {
        try await complete(choreID, in: householdID, by: userID, note: note, clock: clock, notices: nil)
    }

    /// ``createEvent(_:id:in:by:now:notices:)`` with no notices to record.
    func createEvent(_ draft: EventRules.Draft, id: String, in householdID: String, by userID: String, now: Date)
        async throws -> (StoredEvent, members: [String])
    {
        try await createEvent(draft, id: id, in: householdID, by: userID, now: now, notices: nil)
    }

    /// ``editEvent(_:in:by:_:now:notices:)`` with no notices to record.
    func editEvent(
        _ eventID: String, in householdID: String, by userID: String, _ change: EventRules.Change, now: Date
    ) async throws -> StoredEvent {
        try await editEvent(eventID, in: householdID, by: userID, change, now: now, notices: nil)
    }

    /// ``cancelEvent(_:in:by:now:notices:)`` with no notices to record.
    func cancelEvent(_ eventID: String, in householdID: String, by userID: String, now: Date) async throws
        -> (StoredEvent, members: [String])
    {
        try await cancelEvent(eventID, in: householdID, by: userID, now: now, notices: nil)
    }

    /// ``answer(_:in:by:_:now:notices:)`` with no notices to record.
    func answer(_ eventID: String, in householdID: String, by userID: String, _ answer: EventRules.Answer, now: Date)
        async throws -> StoredEvent
    {
        try await self.answer(eventID, in: householdID, by: userID, answer, now: now, notices: nil)
    }

    /// ``addGrocery(_:notices:)`` with no notices to record.
    func addGrocery(_ item: GroceryItemRecord) async throws {
        try await addGrocery(item, notices: nil)
    }

    /// ``createBill(_:id:in:by:idempotencyKey:now:notices:)`` with no notices to record.
    func createBill(
        _ draft: BillDraft, id: String, in householdID: String, by userID: String, idempotencyKey: String?, now: Date
    ) async throws -> (StoredBill, created: Bool) {
        try await createBill(
            draft, id: id, in: householdID, by: userID, idempotencyKey: idempotencyKey, now: now, notices: nil)
    }
}
