import Foundation
import Logging
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// Runs `body` with `replicas` stores on one fresh database of `kind`, all running: on PostgreSQL each its own pool, as
/// each replica of the service has; on SQLite one store (one process owns the file).
func withHouseholdStores<T: Sendable>(
    _ kind: StoreKind, replicas: Int = 1, _ body: ([any HouseholdStore]) async throws -> T
) async throws -> T {
    let location = try await kind.freshLocation()
    var stores: [any HouseholdStore] = []
    for _ in 0..<(kind == .sqlite ? 1 : replicas) {
        stores.append(try await openHouseholdStore(location, logger: Logger(label: "test.household")))
    }
    let all = stores
    func running(_ index: Int) async throws -> T {
        guard index < all.count else { return try await body((0..<replicas).map { all[$0 % all.count] }) }
        return try await withRunning(all[index]) { try await running(index + 1) }
    }
    return try await running(0)
}

/// A household `h` of `members` (the first created it), all joined at `now`.
func makeHousehold(_ store: any HouseholdStore, _ members: [String], now: Date, timeZone: String = "UTC") async throws {
    try await store.createHousehold(
        HouseholdRecord(
            id: "h", name: "Flat", timeZone: timeZone, createdBy: members[0], noteLifetimeDays: 7, createdAt: now))
    for member in members.dropFirst() {
        try await store.invite(
            InvitationRecord(
                id: "i-\(member)", householdId: "h", inviterId: members[0], inviteeId: member, status: "pending",
                createdAt: now))
        _ = try await store.respond(to: "i-\(member)", as: member, accept: true, now: now)
    }
}

/// What differs between SQLite and PostgreSQL, held to one answer: case folding, ordering, instants and cursors, the
/// chore list's revision, and invariants under concurrent writers (on PostgreSQL, writers on two replicas).
@Suite struct HouseholdStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000.123_456)

    func equalBill(_ amount: Int, _ currency: String = "EUR", payer: String? = nil, among: [String]? = nil)
        -> BillDraft
    {
        BillDraft(
            description: "x", amount: amount, currency: currency, payerID: payer,
            split: BillDraft.Split(kind: "equal", among: among))
    }

    /// With the outbox, a new bill's notice is written in the bill's own transaction: once for the bill, not again
    /// for a retry with the same key, and not at all for a bill refused (a non-member's).
    @Test(arguments: StoreKind.allCases)
    func aBillsNoticeIsWrittenWithIt(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            // given the store's outbox as the service's notice sink
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            let outbox = try #require(store.outbox)
            let sink = OutboxNoticeSink.undelivered(outbox, producer: .household)
            let notices = ChangeNotices<BillAdded>(sink: sink) { added in
                [Notice(recipients: ["bob"], kind: "household.bill_added", text: added.bill.id, link: "/")]
            }
            // when ann adds a bill, retries it with its key, and cat (no member) tries one
            for _ in 0..<2 {
                _ = try await store.createBill(
                    equalBill(100), id: "b1", in: "h", by: "ann", idempotencyKey: "k1", now: now, notices: notices)
            }
            await #expect(throws: HouseholdError.self) {
                _ = try await store.createBill(
                    equalBill(100), id: "b2", in: "h", by: "cat", idempotencyKey: nil, now: now, notices: notices)
            }
            // then one notice waits, for the bill that was made
            let bodies = try await outbox.waitingEntries().map { String(decoding: $0.message.body, as: UTF8.self) }
            #expect(bodies.count == 1 && bodies.first?.contains("\"text\":\"b1\"") == true, "\(bodies)")
        }
    }

    /// Suggestions fold ASCII letters only, as SQLite's LIKE and lower() do: "Milk" and "MILK" are one name, "Éclair"
    /// and "éclair" two; most used first, then by the folded name's bytes; the first spelling by bytes is shown.
    @Test(arguments: StoreKind.allCases)
    func grocerySuggestionsFoldASCIICaseOnly(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            for (index, name) in ["milk", "MILK", "Milk", "Éclair", "éclair", "éclair", "Mint", "mango_"].enumerated() {
                try await store.addGrocery(
                    GroceryItemRecord(
                        id: "g\(index)", householdId: "h", ownerId: nil, name: name, mergeKey: "k\(index)", quantity: 1,
                        note: nil, visible: true, createdBy: "ann", createdAt: now))
            }
            let m = try await store.grocerySuggestions(in: "h", asMember: "bob", prefix: "M", limit: 10)
            #expect(m.map(\.name) == ["MILK", "mango_", "Mint"])
            #expect(m.map(\.uses) == [3, 1, 1])
            let accented = try await store.grocerySuggestions(in: "h", asMember: "bob", prefix: "é", limit: 10)
            #expect(accented.map(\.name) == ["éclair"])
            #expect(accented.map(\.uses) == [2])
            let wildcard = try await store.grocerySuggestions(in: "h", asMember: "bob", prefix: "mango_", limit: 10)
            #expect(wildcard.map(\.name) == ["mango_"])
            #expect(try await store.grocerySuggestions(in: "h", asMember: "bob", prefix: "m_", limit: 10).isEmpty)
        }
    }

    /// A client's text holding NUL (which PostgreSQL's text cannot hold) matches nothing, as in SQLite: no
    /// completions, no suggestions, and a payment to such a "member" is a payment to no member.
    @Test(arguments: StoreKind.allCases)
    func aNULInAClientsTextMatchesNothing(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            let odd = "a\u{0}b"
            #expect(
                try await store.completions(
                    of: "h", asMember: "ann", member: odd, choreID: odd, from: nil, to: nil, after: nil, limit: 10
                ).isEmpty)
            #expect(try await store.grocerySuggestions(in: "h", asMember: "ann", prefix: odd, limit: 10).isEmpty)
            await #expect(throws: HouseholdError.notAMember) {
                try await store.recordPayment(
                    PaymentRecord(
                        id: "p", householdId: "h", fromId: "ann", toId: odd, amount: 1, currency: "EUR", createdAt: now)
                )
            }
        }
    }

    /// A custom chore's name is kept once whatever its ASCII case (SQLite's NOCASE key), non-ASCII letters stay
    /// apart, and the list is in NOCASE order.
    @Test(arguments: StoreKind.allCases)
    func customChoresAreKeptOnceIgnoringASCIICase(kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann"], now: clock.now)
            for (index, name) in ["water plants", "Ölen", "WATER Plants", "ölen", "bake", "Zest"].enumerated() {
                _ = try await store.createChore(in: "h", by: "ann", clock: clock.wallClock) { _, today in
                    var chore = ChoreRecord(
                        id: "c\(index)", householdId: "h", name: name, points: index + 1, scheduleKind: "once",
                        assignmentKind: "leastPoints", nextDue: today.description, createdAt: clock.now)
                    chore.set(.once)
                    return chore
                }
            }
            let custom = try await store.customChores(of: "h", asMember: "ann")
            #expect(custom.map(\.name) == ["bake", "water plants", "Zest", "Ölen", "ölen"])
            #expect(custom.map(\.points) == [5, 1, 6, 2, 4])
        }
    }

    /// Bills made at one instant page newest first by id, the cursor being the last bill's instant as read back;
    /// instants come back as SQLite keeps them (to the millisecond), so both engines answer the same dates.
    @Test(arguments: StoreKind.allCases)
    func billsPageTheSameWayAtOneInstant(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now)
            // Two at one instant, three more within one millisecond (the same one, as stored).
            let instants = [now, now, now.addingTimeInterval(1.000_1), now.addingTimeInterval(1.000_4), now + 1.000_7]
            for (index, instant) in instants.enumerated() {
                _ = try await store.createBill(
                    equalBill(100 + index), id: "b\(index)", in: "h", by: "ann", idempotencyKey: nil, now: instant)
            }
            var pages: [[String]] = []
            var cursor: (createdAt: Date, id: String)?
            repeat {
                let page = try await store.bills(of: "h", asMember: "bob", after: cursor, limit: 2)
                pages.append(page.map(\.bill.id))
                cursor = page.last.map { ($0.bill.createdAt, $0.bill.id) }
            } while cursor != nil
            #expect(pages == [["b4", "b3"], ["b2", "b1"], ["b0"], []])
            let read = try await store.bill("b0", in: "h", asMember: "ann").bill
            #expect(abs(read.createdAt.timeIntervalSince1970 - 1_795_000_000.123) < 1e-6)
            #expect(read.createdAt.storedMilliseconds == 1_795_000_000_123)
        }
    }

    /// The chore list's revision moves with every change to the household's chores or members, and with nothing
    /// else.
    @Test(arguments: StoreKind.allCases)
    func theRevisionMovesWithChoresAndMembers(kind: StoreKind) async throws {
        let clock = ManualClock()
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            func revision() async throws -> Int64 {
                try await store.choreListRevision(of: "h", asMember: "ann").revision
            }
            try await makeHousehold(store, ["ann", "bob"], now: clock.now)
            var last = try await revision()
            func expectMoved(_ what: Comment, moved: Bool = true) async throws {
                let now = try await revision()
                #expect((now > last) == moved, what)
                #expect(try await store.chores(of: "h", asMember: "ann").revision == now, what)
                last = now
            }
            let (chore, _, _) = try await store.createChore(in: "h", by: "ann", clock: clock.wallClock) { _, today in
                ChoreRecord(
                    id: "c", householdId: "h", name: "Bins", points: 1, scheduleKind: "everyDays", scheduleEvery: 2,
                    assignmentKind: "leastPoints", nextDue: today.description, createdAt: clock.now)
            }
            try await expectMoved("a chore added")
            _ = try await store.complete(chore.id, in: "h", by: "bob", note: nil, clock: clock.wallClock)
            try await expectMoved("a chore completed")
            try await store.addGrocery(
                GroceryItemRecord(
                    id: "g", householdId: "h", ownerId: nil, name: "Milk", mergeKey: "milk", quantity: 1, note: nil,
                    visible: true, createdBy: "ann", createdAt: clock.now))
            _ = try await store.createBill(
                equalBill(100), id: "b", in: "h", by: "ann", idempotencyKey: nil, now: clock.now)
            try await expectMoved("groceries and bills", moved: false)
            try await store.invite(
                InvitationRecord(
                    id: "i-cat", householdId: "h", inviterId: "ann", inviteeId: "cat", status: "pending",
                    createdAt: clock.now))
            _ = try await store.respond(to: "i-cat", as: "cat", accept: true, now: clock.now)
            try await expectMoved("a member joined")
            _ = try await store.removeMember("cat", from: "h", by: "cat", now: clock.now)
            try await expectMoved("a member left")
            try await store.deleteChore(chore.id, in: "h", by: "ann", now: clock.now)
            try await expectMoved("a chore deleted")
        }
    }

    /// The running balances equal the sums over every bill, share and payment after a seeded mix of writes, and
    /// both engines end with the same numbers: balances, what each owes whom, expense statistics, chore tallies.
    @Test func bothEnginesGiveTheSameNumbers() async throws {
        var answers: [String] = []
        for kind in StoreKind.allCases {
            let clock = ManualClock()
            answers.append(
                try await withHouseholdStores(kind) { stores in
                    let store = stores[0]
                    let people = ["p0", "p1", "p2", "p3"]
                    try await makeHousehold(store, people, now: clock.now)
                    var random = SplitMix64(seed: 42)
                    var bills: [String] = []
                    for step in 0..<120 {
                        clock.advance(by: Double(Int.random(in: 1...90_000, using: &random)) + 0.000_7)
                        let currency = ["EUR", "USD"][step % 2]
                        let who = people.randomElement(using: &random)!
                        switch Int.random(in: 0..<10, using: &random) {
                        case 0..<5:
                            let among = people.filter { _ in Bool.random(using: &random) } + [who]
                            _ = try await store.createBill(
                                equalBill(
                                    Int.random(in: 1...100_000, using: &random), currency, payer: who,
                                    among: Array(Set(among)).sorted()),
                                id: "b\(step)", in: "h", by: "p0", idempotencyKey: nil, now: clock.now)
                            bills.append("b\(step)")
                        case 5..<7 where !bills.isEmpty:
                            _ = try await store.replaceBill(
                                bills.randomElement(using: &random)!, in: "h",
                                with: equalBill(Int.random(in: 1...100_000, using: &random), currency, payer: who),
                                by: "p1", now: clock.now)
                        case 7 where !bills.isEmpty:
                            let id = bills.remove(at: Int.random(in: 0..<bills.count, using: &random))
                            try await store.deleteBill(id, in: "h", by: "p2", now: clock.now)
                        default:
                            let to = people.filter { $0 != who }.randomElement(using: &random)!
                            do {
                                try await store.recordPayment(
                                    PaymentRecord(
                                        id: "pay\(step)", householdId: "h", fromId: who, toId: to,
                                        amount: Int.random(in: 1...5_000, using: &random), currency: currency,
                                        createdAt: clock.now))
                            } catch HouseholdError.overpayment {}
                        }
                    }
                    let running = try await store.balances(of: "h", asMember: "p0").net
                    let recomputed = try await store.recomputedBalances(of: "h", asMember: "p0").net
                        .mapValues { $0.filter { $0.value != 0 } }.filter { !$0.value.isEmpty }
                    #expect(running == recomputed, "\(kind)")
                    #expect(running.values.allSatisfy { $0.values.reduce(0, +) == 0 })
                    var lines = [
                        "balances \(running.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.sorted { $0.key < $1.key })" })"
                    ]
                    for payer in people {
                        for payee in people where payee != payer {
                            let target = try await store.paymentTarget(in: "h", from: payer, to: payee, currency: "EUR")
                            lines.append("\(payer) owes \(payee) \(target.owed)")
                        }
                    }
                    let (_, months, expenses) = try await store.expenseBills(of: "h", asMember: "p0", now: clock.now) {
                        thisMonth in try ExpenseStatistics.months(from: nil, to: nil, thisMonth: thisMonth)
                    }
                    for currency in ["EUR", "USD"] {
                        let tally = ExpenseStatistics.tally(expenses, currency: currency, months: months)
                        lines.append(
                            "\(currency) \(tally.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" })" })"
                        )
                    }
                    let page = try await store.bills(of: "h", asMember: "p3", after: nil, limit: 500)
                    lines.append(
                        "bills \(page.map { "\($0.bill.id) \($0.bill.amount) \($0.bill.createdAt.timeIntervalSince1970) \($0.shares.sorted { $0.key < $1.key })" })"
                    )
                    return lines.joined(separator: "\n")
                })
        }
        #expect(answers[0] == answers[1])
    }

    /// Ten payments of 1.00 racing to settle 5.00 (on PostgreSQL from two replicas): five are taken, the others are
    /// refused as overpayments, and the balances end settled.
    @Test(arguments: StoreKind.allCases)
    func racingPaymentsNeverPayMoreThanIsOwed(kind: StoreKind) async throws {
        try await withHouseholdStores(kind, replicas: 2) { stores in
            try await makeHousehold(stores[0], ["ann", "bob"], now: now)
            _ = try await stores[0].createBill(
                equalBill(1_000), id: "b", in: "h", by: "ann", idempotencyKey: nil, now: now)
            let instant = now
            let taken = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<10 {
                    group.addTask {
                        do {
                            try await stores[index % 2].recordPayment(
                                PaymentRecord(
                                    id: "p\(index)", householdId: "h", fromId: "bob", toId: "ann", amount: 100,
                                    currency: "EUR", createdAt: instant))
                            return true
                        } catch HouseholdError.overpayment {
                            return false
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(taken == 5)
            #expect(try await stores[1].balances(of: "h", asMember: "bob").net.isEmpty)
        }
    }

    /// Eight requests carrying one idempotency key at once (on PostgreSQL, four on each of two replicas): one bill is
    /// made, and every answer is that bill.
    @Test(arguments: StoreKind.allCases)
    func oneIdempotencyKeyMakesOneBill(kind: StoreKind) async throws {
        try await withHouseholdStores(kind, replicas: 2) { stores in
            try await makeHousehold(stores[0], ["ann", "bob"], now: now)
            let (instant, draft) = (now, equalBill(1_000))
            let answers = try await withThrowingTaskGroup(of: (String, Bool).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let (stored, created) = try await stores[index % 2].createBill(
                            draft, id: "b\(index)", in: "h", by: "ann", idempotencyKey: "key-1", now: instant)
                        return (stored.bill.id, created)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter(\.1).count == 1)
            #expect(Set(answers.map(\.0)).count == 1)
            #expect(try await stores[1].bills(of: "h", asMember: "bob", after: nil, limit: 50).count == 1)
            #expect(try await stores[1].balances(of: "h", asMember: "bob").net["EUR"]?["bob"] == -500)
        }
    }

    /// The month-end job running on two replicas at once reminds each debtor once.
    @Test(arguments: StoreKind.allCases)
    func theMonthEndReminderGoesOutOnceFromTwoReplicas(kind: StoreKind) async throws {
        // 2026-11-30 12:00 UTC, the month's last day.
        let lastDay = Date(timeIntervalSince1970: 1_796_040_000)
        try await withHouseholdStores(kind, replicas: 2) { stores in
            try await makeHousehold(stores[0], ["ann", "bob", "cat"], now: lastDay)
            _ = try await stores[0].createBill(
                equalBill(900), id: "b", in: "h", by: "ann", idempotencyKey: nil, now: lastDay)
            let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await stores[index % 2].claimMonthEndReminders(now: lastDay).map(\.debtor)
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(claimed.sorted() == ["bob", "cat"])
            #expect(try await stores[1].claimMonthEndReminders(now: lastDay + 3_600).isEmpty)
        }
    }
}
