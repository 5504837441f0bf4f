import Foundation
import PlatformKit
import Testing

@testable import HouseholdService

/// The rules of a bill several people paid (Splitwise's "paid by multiple people").
@Suite struct BillPayersTests {
    let members = ["alice", "bob", "carol"]

    func payers(_ entries: [(String, Int)]) -> [BillPayers.Payer] {
        entries.map { BillPayers.Payer(userId: $0.0, amount: $0.1) }
    }

    func draft(payerID: String? = nil, payers: [BillPayers.Payer]?) -> BillDraft {
        BillDraft(
            description: "Groceries", amount: 9_000, currency: "EUR", payerID: payerID,
            split: BillDraft.Split(kind: "equal"), payers: payers)
    }

    @Test func eachPayerPaysTheirAmountAddingUpToTheTotal() throws {
        let paid = try BillPayers.paid(payers([("alice", 6_000), ("bob", 3_000)]), total: 9_000, members: members)
        #expect(paid == ["alice": 6_000, "bob": 3_000])
        #expect(BillPayers.list(paid) == payers([("alice", 6_000), ("bob", 3_000)]))
        #expect(BillPayers.principal(paid) == "alice")
    }

    @Test func theListIsMostFirstThenById() {
        let paid = ["carol": 100, "alice": 100, "bob": 800]
        #expect(BillPayers.list(paid).map(\.userId) == ["bob", "alice", "carol"])
    }

    @Test(
        arguments: [
            ([("alice", 9_000)], "payers: must name 2 to 20 people; send payerId for one."),
            ([], "payers: must name 2 to 20 people; send payerId for one."),
            ([("alice", 5_000), ("alice", 4_000)], "payers: must name each payer once."),
            ([("alice", 6_000), ("dave", 3_000)], "payers: everyone who paid must be a member of the household."),
            ([("alice", 6_000), ("bob", 2_000)], "payers: the amounts paid must add up to the bill's amount exactly."),
            (
                [("alice", 10_000), ("bob", -1_000)],
                "payers: payers[1].amount must be a positive amount in minor units, at most 1,000,000.00."
            ),
            (
                [("alice", 0), ("bob", 9_000)],
                "payers: payers[0].amount must be a positive amount in minor units, at most 1,000,000.00."
            ),
            // Bounded before the sum: these would overflow an Int when added.
            (
                [("alice", Int.max), ("bob", Int.max)],
                "payers: payers[0].amount must be a positive amount in minor units, at most 1,000,000.00."
            ),
        ] as [([(String, Int)], String)])
    func aWrongListIsRefusedNamingPayers(entries: [(String, Int)], detail: String) {
        #expect(throws: HouseholdError.invalidField("payers", String(detail.dropFirst("payers: ".count)))) {
            try BillPayers.paid(payers(entries), total: 9_000, members: members)
        }
    }

    @Test func twentyOneAreTooMany() throws {
        let many = (0..<21).map { BillPayers.Payer(userId: "m\($0)", amount: 1) }
        #expect(throws: HouseholdError.self) {
            try BillPayers.paid(many, total: 21, members: many.map(\.userId))
        }
        #expect(
            try BillPayers.paid(Array(many.prefix(20)), total: 20, members: many.map(\.userId)).count == 20)
    }

    @Test func aDraftIsPaidByItsPayerAloneOrByItsPayers() throws {
        #expect(try draft(payers: nil).paid(byDefault: "alice", members: members) == ["alice": 9_000])
        #expect(try draft(payerID: "bob", payers: nil).paid(byDefault: "alice", members: members) == ["bob": 9_000])
        let several = draft(payers: payers([("bob", 4_500), ("carol", 4_500)]))
        #expect(try several.paid(byDefault: "alice", members: members) == ["bob": 4_500, "carol": 4_500])
    }

    @Test func aDraftNamesEitherOnePayerOrSeveral() {
        let both = draft(payerID: "bob", payers: payers([("bob", 4_500), ("carol", 4_500)]))
        #expect(throws: HouseholdError.invalidField("payers", "send either payerId or payers, not both.")) {
            try both.paid(byDefault: "alice", members: members)
        }
    }

    /// The export keeps one row per bill; its `paid_by` names each payer with what they paid, most first.
    @Test func theExportListsEachPayerInOneRow() {
        let instant = Date(timeIntervalSince1970: 1_795_000_000)
        let bill = BillRecord(
            id: "b", householdId: "h", description: "Shop", amount: 9_000, currency: "EUR", payerId: "alice",
            splitKind: "equal", createdBy: "carol", idempotencyKey: nil, createdAt: instant, updatedAt: instant)
        let ledger = HouseholdLedger(
            timeZone: "UTC", members: members,
            bills: [
                StoredBill(
                    bill: bill, shares: ["alice": 3_000, "bob": 3_000, "carol": 3_000],
                    paid: ["bob": 3_000, "alice": 6_000])
            ], payments: [])
        let lines = LedgerCSV.csv(ledger, names: ["alice": "Alice", "bob": "=Bob"]).components(separatedBy: "\r\n")
        #expect(lines.count == 3)
        #expect(lines[1].contains(",bill,Shop,other,90.00,EUR,Alice 60.00; =Bob 30.00,,"))
        #expect(lines[1].hasSuffix(",b,30.00,30.00,30.00"))
    }
}
