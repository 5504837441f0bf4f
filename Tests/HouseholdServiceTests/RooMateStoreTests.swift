import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// RooMate's stored parts on both engines: bill categories, exports, chore reminders and recurring bills.
@Suite struct RooMateStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func bill(_ amount: Int, _ category: String) -> BillDraft {
        BillDraft(
            description: category, amount: amount, currency: "EUR", payerID: nil,
            split: BillDraft.Split(kind: "equal"), category: category)
    }

    @Test(arguments: StoreKind.allCases)
    func aBillsCategoryIsStoredFilteredAndReported(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            _ = try await store.createBill(
                bill(1_000, "rent"), id: "b1", in: "h", by: "ann", idempotencyKey: nil, now: now)
            _ = try await store.createBill(
                bill(400, "internet"), id: "b2", in: "h", by: "bob", idempotencyKey: nil, now: now + 1)
            _ = try await store.replaceBill("b2", in: "h", with: bill(400, "utilities"), by: "ann", now: now + 2)
            let utilities = try await store.bills(
                of: "h", asMember: "bob", category: "utilities", after: nil, limit: 10)
            #expect(utilities.map(\.bill.id) == ["b2"])
            #expect(
                try await store.bills(of: "h", asMember: "bob", category: "internet", after: nil, limit: 10).isEmpty)
            #expect(try await store.bill("b1", in: "h", asMember: "bob").bill.category == "rent")
            let (_, _, expenses) = try await store.expenseBills(of: "h", asMember: "ann", now: now) { [$0] }
            #expect(Set(expenses.map(\.category)) == ["rent", "utilities"])
        }
    }
}

extension RooMateStoreTests {
    @Test(arguments: StoreKind.allCases)
    func theLedgerHoldsTheNewestBillsAndPaymentsOldestFirst(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            for index in 0..<3 {
                _ = try await store.createBill(
                    bill(100 + index, "rent"), id: "b\(index)", in: "h", by: "ann", idempotencyKey: nil,
                    now: now + Double(index))
            }
            try await store.recordPayment(
                PaymentRecord(
                    id: "p", householdId: "h", fromId: "bob", toId: "ann", amount: 50, currency: "EUR", createdAt: now))
            let ledger = try await store.ledger(of: "h", asMember: "bob", limit: 2)
            #expect(ledger.bills.map(\.bill.id) == ["b1", "b2"])
            #expect(
                ledger.bills[0].shares == ["ann": 51, "bob": 50] || ledger.bills[0].shares == ["ann": 50, "bob": 51])
            #expect(ledger.payments.map(\.id) == ["p"])
            #expect(ledger.members == ["ann", "bob"] && ledger.timeZone == "UTC")
            await #expect(throws: HouseholdError.self) { try await store.ledger(of: "h", asMember: "cat", limit: 2) }
        }
    }
}

extension RooMateStoreTests {
    /// Midnight UTC of a day.
    static let midnight = Date(
        timeIntervalSince1970: 1_800_000_000 - 1_800_000_000.truncatingRemainder(dividingBy: 86_400))

    func addChore(
        _ store: any HouseholdStore, _ id: String, for assignee: String,
        due: @escaping @Sendable (LocalDay) -> LocalDay,
        clock: ManualClock
    ) async throws {
        _ = try await store.createChore(in: "h", by: "ann", clock: clock.wallClock) { _, today in
            ChoreRecord(
                id: id, householdId: "h", name: "Chore \(id)", points: 1, scheduleKind: "everyDays", scheduleEvery: 2,
                assignmentKind: "fixed", assignmentFixed: assignee, assigneeId: assignee,
                nextDue: due(today).description, createdAt: clock.now)
        }
    }

    /// The assignee of a chore due today is reminded once from 09:00, by one of two replicas claiming at once; a
    /// chore done early, or due yesterday (the service was down), is not.
    @Test(arguments: StoreKind.allCases)
    func aChoreFallingDueIsRemindedOnce(kind: StoreKind) async throws {
        try await withHouseholdStores(kind, replicas: 2) { stores in
            let store = stores[0]
            let clock = ManualClock(Self.midnight + 8 * 3_600)
            try await makeHousehold(store, ["ann", "bob"], now: clock.now)
            try await addChore(store, "c1", for: "bob", due: { $0 }, clock: clock)
            try await addChore(store, "c2", for: "ann", due: { $0 }, clock: clock)
            try await addChore(store, "c3", for: "ann", due: { $0.adding(days: -1) }, clock: clock)
            _ = try await store.complete("c2", in: "h", by: "ann", note: nil, clock: clock.wallClock)
            #expect(try await store.claimChoreReminders(now: clock.now, limit: 10).isEmpty)
            let nine = Self.midnight + 9 * 3_600 + 30
            async let first = stores[0].claimChoreReminders(now: nine, limit: 10)
            async let second = stores[1].claimChoreReminders(now: nine, limit: 10)
            let claimed = try await first + second
            let today = LocalDay(nine, in: .gmt).description
            #expect(
                claimed == [
                    ChoreReminder(
                        householdID: "h", choreID: "c1", choreName: "Chore c1", assigneeID: "bob", dueOn: today)
                ])
            #expect(try await store.claimChoreReminders(now: nine + 3_600, limit: 10).isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aChoreReminderNotSentByNineInTheEveningIsDropped(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            let clock = ManualClock(Self.midnight + 8 * 3_600)
            try await makeHousehold(store, ["ann", "bob"], now: clock.now, timeZone: "America/New_York")
            try await addChore(store, "c1", for: "bob", due: { $0 }, clock: clock)
            // 08:00 UTC is 03:00 in New York: 21:00 there is 02:00 UTC the next day.
            #expect(try await store.claimChoreReminders(now: Self.midnight + 13 * 3_600, limit: 10).count == 0)
            #expect(try await store.claimChoreReminders(now: Self.midnight + 26 * 3_600, limit: 10).isEmpty)
            #expect(try await store.claimChoreReminders(now: Self.midnight + 25 * 3_600, limit: 10).count == 1)
        }
    }
}

extension RooMateStoreTests {
    func rent(startOn: LocalDay? = nil) -> RecurringBill {
        RecurringBill(draft: bill(80_000, "rent"), schedule: .everyDays(7), startOn: startOn)
    }

    /// Two replicas making a recurring bill at once make it once; after ten days down only the latest missed day is
    /// made; a stopped one makes nothing.
    @Test(arguments: StoreKind.allCases)
    func aRecurringBillIsMadeOnceOnItsDay(kind: StoreKind) async throws {
        try await withHouseholdStores(kind, replicas: 2) { stores in
            let store = stores[0]
            let day = Self.midnight + 3_600
            try await makeHousehold(store, ["ann", "bob"], now: day)
            let record = try await store.createRecurringBill(rent(), id: "r", in: "h", by: "bob", now: day)
            #expect(record.nextOn == LocalDay(day, in: .gmt).description)
            #expect(try await store.recurringBillsToMake(now: day, limit: 10).map(\.id) == ["r"])
            async let first = stores[0].makeRecurringBill("r", in: "h", now: day)
            async let second = stores[1].makeRecurringBill("r", in: "h", now: day)
            let made = [try await first, try await second].compactMap(\.self)
            #expect(made.count == 1)
            #expect(made.first?.bill.payerId == "bob" && made.first?.bill.category == "rent")
            #expect(try await store.makeRecurringBill("r", in: "h", now: day + 60) == nil)

            let later = day + 17 * 86_400
            let caughtUp = try await store.makeRecurringBill("r", in: "h", now: later)
            #expect(caughtUp?.day == LocalDay(day + 14 * 86_400, in: .gmt).description)
            #expect(
                try await store.recurringBill("r", in: "h", asMember: "ann").nextOn
                    == LocalDay(day + 21 * 86_400, in: .gmt).description)
            #expect(try await store.bills(of: "h", asMember: "ann", category: "rent", after: nil, limit: 10).count == 2)

            _ = try await store.stopRecurringBill("r", in: "h", by: "bob", now: later)
            #expect(try await store.recurringBillsToMake(now: later + 30 * 86_400, limit: 10).isEmpty)
            #expect(try await store.makeRecurringBill("r", in: "h", now: later + 30 * 86_400) == nil)
            await #expect(throws: HouseholdError.notFound("The household")) {
                try await store.recurringBills(of: "h", asMember: "cat", after: nil, limit: 10)
            }
        }
    }
}
