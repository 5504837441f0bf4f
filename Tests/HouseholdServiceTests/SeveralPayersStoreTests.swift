import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// Bills paid by several people, stored on both engines: read back everywhere a bill is read, balances moved exactly
/// on create, edit between one payer and several, and delete.
@Suite struct SeveralPayersStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func groceries(payerID: String? = nil, payers: [(String, Int)]?, amount: Int = 9_000) -> BillDraft {
        BillDraft(
            description: "Groceries", amount: amount, currency: "EUR", payerID: payerID,
            split: BillDraft.Split(kind: "equal"),
            payers: payers?.map { BillPayers.Payer(userId: $0.0, amount: $0.1) })
    }

    func balances(_ store: any HouseholdStore) async throws -> [String: Int] {
        try await store.balances(of: "h", asMember: "alice").net["EUR"] ?? [:]
    }

    @Test(arguments: StoreKind.allCases)
    func aBillSeveralPaidIsReadWithItsPayersAndMovesEachBalance(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            // given alice, bob and carol
            let store = stores[0]
            try await makeHousehold(store, ["alice", "bob", "carol"], now: now)
            // when carol adds 90.00 of groceries alice paid 60.00 of and bob 30.00, split three ways
            let (stored, created) = try await store.createBill(
                groceries(payers: [("alice", 6_000), ("bob", 3_000)]), id: "b", in: "h", by: "carol",
                idempotencyKey: "k", now: now)
            // then every read names both payers, and alice (who paid most) is its payerId
            #expect(created && stored.paid == ["alice": 6_000, "bob": 3_000] && stored.bill.payerId == "alice")
            #expect(try await store.bill("b", in: "h", asMember: "bob").paid == stored.paid)
            #expect(try await store.bills(of: "h", asMember: "bob", after: nil, limit: 5).map(\.paid) == [stored.paid])
            #expect(try await store.ledger(of: "h", asMember: "bob", limit: 5).bills.map(\.paid) == [stored.paid])
            let (_, months, expenses) = try await store.expenseBills(of: "h", asMember: "bob", now: now) { [$0] }
            let tally = ExpenseStatistics.tally(expenses, currency: "EUR", months: months)[months[0]] ?? [:]
            #expect(tally.mapValues(\.paid) == ["alice": 6_000, "bob": 3_000, "carol": 0])
            // a retry with the same key answers the payers too
            let retried = try await store.createBill(
                groceries(payers: [("alice", 6_000), ("bob", 3_000)]), id: "b2", in: "h", by: "carol",
                idempotencyKey: "k", now: now)
            #expect(!retried.created && retried.0.paid == stored.paid)
            // and the balances are alice +30.00, bob 0, carol -30.00
            #expect(try await balances(store) == ["alice": 3_000, "carol": -3_000])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func editingBetweenOnePayerAndSeveralAndDeletingMovesBalancesExactlyBack(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["alice", "bob", "carol"], now: now)
            _ = try await store.createBill(
                groceries(payers: [("alice", 6_000), ("bob", 3_000)]), id: "b", in: "h", by: "carol",
                idempotencyKey: nil, now: now)
            // edited to bob alone: his payers row is gone, he paid it all
            let alone = try await store.replaceBill(
                "b", in: "h", with: groceries(payerID: "bob", payers: nil), by: "alice", now: now)
            #expect(alone.paid == ["bob": 9_000] && alone.bill.payerId == "bob")
            #expect(try await store.bill("b", in: "h", asMember: "carol").paid == ["bob": 9_000])
            #expect(try await balances(store) == ["alice": -3_000, "bob": 6_000, "carol": -3_000])
            // back to three payers, one of them carol, with a new amount
            let three = try await store.replaceBill(
                "b", in: "h", with: groceries(payers: [("carol", 100), ("alice", 200), ("bob", 300)], amount: 600),
                by: "bob", now: now)
            #expect(three.paid == ["alice": 200, "bob": 300, "carol": 100] && three.bill.payerId == "bob")
            #expect(try await balances(store) == ["carol": -100, "bob": 100])
            let recomputed = try await store.recomputedBalances(of: "h", asMember: "alice").net["EUR"] ?? [:]
            #expect(recomputed.filter { $0.value != 0 } == ["carol": -100, "bob": 100])
            // deleted: nothing is owed
            try await store.deleteBill("b", in: "h", by: "carol", now: now)
            #expect(try await store.balances(of: "h", asMember: "alice").net.isEmpty)
            #expect(try await store.recomputedBalances(of: "h", asMember: "alice").net.allSatisfy { $0.value.isEmpty })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedPayersListStoresNothing(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["alice", "bob", "carol"], now: now)
            try await makeOtherHousehold(store)
            // a payer from another household, and an outsider adding a bill with payers
            await #expect(
                throws: HouseholdError.invalidField("payers", "everyone who paid must be a member of the household.")
            ) {
                _ = try await store.createBill(
                    groceries(payers: [("alice", 6_000), ("eve", 3_000)]), id: "b", in: "h", by: "alice",
                    idempotencyKey: nil, now: now)
            }
            await #expect(throws: HouseholdError.notFound("The household")) {
                _ = try await store.createBill(
                    groceries(payers: [("alice", 6_000), ("bob", 3_000)]), id: "b", in: "h", by: "eve",
                    idempotencyKey: nil, now: now)
            }
            // an edit whose amounts do not add up leaves the bill as it was
            _ = try await store.createBill(
                groceries(payers: nil), id: "b", in: "h", by: "alice", idempotencyKey: nil, now: now)
            await #expect(throws: HouseholdError.self) {
                _ = try await store.replaceBill(
                    "b", in: "h", with: groceries(payers: [("alice", 6_000), ("bob", 2_000)]), by: "bob", now: now)
            }
            await #expect(throws: HouseholdError.notFound("The household")) {
                _ = try await store.replaceBill(
                    "b", in: "h", with: groceries(payers: [("alice", 6_000), ("bob", 3_000)]), by: "eve", now: now)
            }
            #expect(try await store.bill("b", in: "h", asMember: "bob").paid == ["alice": 9_000])
            #expect(try await balances(store) == ["alice": 6_000, "bob": -3_000, "carol": -3_000])
        }
    }

    /// Household `other` of eve alone.
    func makeOtherHousehold(_ store: any HouseholdStore) async throws {
        try await store.createHousehold(
            HouseholdRecord(
                id: "other", name: "Elsewhere", timeZone: "UTC", createdBy: "eve", noteLifetimeDays: 7, createdAt: now))
    }
}
