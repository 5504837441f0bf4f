import Foundation
import GRDB
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

@Suite struct GroceryMergeTests {
    @Test(arguments: [
        ("Eggs", "egg"), ("EGGS ", "Egg"), ("tomatoes", "Tomato"), ("berries", "berry"), ("boxes", "box"),
        ("Cookies", "cookie"), ("apples", "apple"), ("Paper  towels", "paper towel"), ("glasses", "glass"),
        ("Jalapeños", "jalapeno"), ("peaches", "peach"), ("pies", "pie"),
    ])
    func theSameItemMergesWhateverItsCaseOrPlural(a: String, b: String) {
        #expect(Groceries.mergeKey(a) == Groceries.mergeKey(b))
    }

    @Test(arguments: [("milk", "oat milk"), ("hummus", "hummu"), ("bus", "bu"), ("rice", "ricotta")])
    func differentItemsStayApart(a: String, b: String) {
        #expect(Groceries.mergeKey(a) != Groceries.mergeKey(b))
    }
}

@Suite struct TripChargeTests {
    let members = ["a", "b", "c"]

    @Test(arguments: propertySeeds()) func randomTripsAlwaysAddUpToTheTotal(seed: UInt64) throws {
        var generator = SplitMix64(seed: seed)
        for round in 0..<500 {
            let lines = (0..<Int.random(in: 1...6, using: &generator)).map { _ in
                let communal = Int.random(in: 0...2, using: &generator)
                var wanted: [String: Int] = [:]
                for member in members where Bool.random(using: &generator) { wanted[member] = Int.random(in: 1...3) }
                if communal == 0 && wanted.isEmpty { wanted["a"] = 1 }
                return TripLine(
                    name: "x", price: Bool.random() ? Int.random(in: 0...500) : nil, communalQuantity: communal,
                    wantedBy: wanted)
            }
            let priced = lines.compactMap(\.price).reduce(0, +)
            let total = Int.random(in: max(1, priced)...(priced + 5_000), using: &generator)
            let shares = try TripCharge.shares(total: total, lines: lines, members: members, seed: "t\(round)")
            #expect(shares.values.reduce(0, +) == total)
            #expect(shares.values.allSatisfy { $0 > 0 })
        }
    }

    @Test func personalItemsGoOnlyToWhoeverWantedThem() throws {
        let shares = try TripCharge.shares(
            total: 1_000, lines: [TripLine(name: "wine", price: 700, communalQuantity: 0, wantedBy: ["b": 1])],
            members: members, seed: "t")
        #expect(shares == ["b": 1_000])
    }
}

@Suite struct RunningBalanceTests {
    let people = ["p0", "p1", "p2", "p3"]

    /// The running per-member balances equal the sum over every bill, share, payer and payment after any mix of
    /// writes: bills paid by one or by several, edited between the two, deleted, and payments. 100 writes a run,
    /// each run drawing new ones.
    @Test(arguments: StoreKind.allCases, propertySeeds())
    func runningBalancesMatchTheRecomputedAggregate(kind: StoreKind, seed: UInt64) async throws {
        try await withHouseholdStores(kind) { stores in try await check(stores[0], seed: seed) }
    }

    func check(_ database: any HouseholdStore, seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let now = Date()
        try await makeHousehold(database, people, now: now)
        var bills: [String] = []
        var several = 0
        for step in 0..<100 {
            let currency = ["EUR", "USD"][step % 2]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<5:
                let id = "b\(step)"
                let among = Array(Set(people.filter { _ in Bool.random(using: &random) } + ["p0"])).sorted()
                let bill = draft(Int.random(in: 1...10_000, using: &random), currency, among: among, &random)
                several += bill.payers == nil ? 0 : 1
                _ = try await database.createBill(bill, id: id, in: "h", by: "p0", idempotencyKey: nil, now: now)
                bills.append(id)
            case 5..<7 where !bills.isEmpty:
                let id = bills.randomElement(using: &random)!
                let bill = draft(Int.random(in: 1...10_000, using: &random), currency, among: people, &random)
                _ = try await database.replaceBill(id, in: "h", with: bill, by: "p1", now: now)
            case 7 where !bills.isEmpty:
                let id = bills.remove(at: Int.random(in: 0..<bills.count, using: &random))
                try await database.deleteBill(id, in: "h", by: "p2", now: now)
            default:
                let from = people.randomElement(using: &random)!
                let to = people.filter { $0 != from }.randomElement(using: &random)!
                // A payment beyond what is owed is refused and moves nothing (the check below still holds).
                do {
                    try await database.recordPayment(
                        PaymentRecord(
                            id: "pay\(step)", householdId: "h", fromId: from, toId: to,
                            amount: Int.random(in: 1...500, using: &random), currency: currency, createdAt: now))
                } catch HouseholdError.overpayment {}
            }
            let running = try await database.balances(of: "h", asMember: "p0").net
            let recomputed = try await database.recomputedBalances(of: "h", asMember: "p0").net
                .mapValues { $0.filter { $0.value != 0 } }.filter { !$0.value.isEmpty }
            #expect(running == recomputed, "seed \(seed) step \(step)")
            #expect(running.values.allSatisfy { $0.values.reduce(0, +) == 0 })
        }
        #expect(several > 0)
    }

    /// A bill paid by one person, or (half the time) by two to four, their amounts adding up to `amount`.
    func draft(_ amount: Int, _ currency: String, among: [String], _ random: inout SplitMix64) -> BillDraft {
        var draft = BillDraft(
            description: "x", amount: amount, currency: currency, payerID: people.randomElement(using: &random),
            split: BillDraft.Split(kind: "equal", among: among))
        let count = Int.random(in: 2...4, using: &random)
        guard amount >= count, Bool.random(using: &random) else { return draft }
        var cuts: Set<Int> = []
        while cuts.count < count - 1 { cuts.insert(Int.random(in: 1..<amount, using: &random)) }
        let edges = [0] + cuts.sorted() + [amount]
        let payers = people.shuffled(using: &random).prefix(count)
        draft.payerID = nil
        draft.payers = zip(payers, zip(edges, edges.dropFirst())).map {
            BillPayers.Payer(userId: $0, amount: $1.1 - $1.0)
        }
        return draft
    }
}

@Suite struct MigrationV3Tests {
    /// Bills and payments stored before v3 are summed into the running balances when v3 runs.
    @Test func theRunningBalancesAreBackfilledFromExistingBills() async throws {
        // given a v2 database with bills and a payment
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("v3-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try HouseholdMigrations.migrator.migrate(queue, upTo: "v2: bills, their shares, payments")
        try await queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO households VALUES ('h', 'Flat', 'UTC', 'a', 7, '2026-01-01');
                    INSERT INTO members VALUES ('h', 'a', '2026-01-01'), ('h', 'b', '2026-01-01'),
                        ('h', 'c', '2026-01-01');
                    INSERT INTO bills VALUES ('b1', 'h', 'x', 1000, 'EUR', 'a', 'equal', 'a', NULL, '2026-01-02',
                        '2026-01-02');
                    INSERT INTO bill_shares VALUES ('b1', 'a', 334), ('b1', 'b', 333), ('b1', 'c', 333);
                    INSERT INTO bills VALUES ('b2', 'h', 'y', 500, 'USD', 'b', 'equal', 'b', NULL, '2026-01-03',
                        '2026-01-03');
                    INSERT INTO bill_shares VALUES ('b2', 'b', 250), ('b2', 'c', 250);
                    INSERT INTO payments VALUES ('p1', 'h', 'b', 'a', 333, 'EUR', '2026-01-04');
                    """)
        }
        try queue.close()
        // when
        let database = try SQLiteHouseholdStore(.file(path))
        // then
        let running = try await database.balances(of: "h", asMember: "a").net
        #expect(running == ["EUR": ["a": 333, "c": -333], "USD": ["b": 250, "c": -250]])
    }
}
