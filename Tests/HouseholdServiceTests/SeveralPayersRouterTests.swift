import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// Bills paid by several people on the service's own router: ann and bob share household `h`, cat is an outsider.
@Suite struct SeveralPayersRouterTests {
    static let bills = "/v1/households/h/bills"

    static func bill(amount: Int = 10_000, payerId: String? = nil, payers: String?) -> String {
        let payer = payerId.map { #","payerId":"\#($0)""# } ?? ""
        let list = payers.map { #","payers":\#($0)"# } ?? ""
        return
            #"{"description":"Dinner","amount":\#(amount),"currency":"EUR","split":{"kind":"equal"}\#(payer)\#(list)}"#
    }

    static func payers(_ object: [String: Any]) -> [String] {
        (object["payers"] as? [[String: Any]] ?? []).map { "\($0["userId"] ?? "?") \($0["amount"] ?? "?")" }
    }

    @Test(arguments: StoreKind.allCases)
    func aBillIsAnsweredWithEveryoneWhoPaid(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            // given a bill ann paid 40.00 of and bob 60.00
            let created = try await client.send(
                .post, Self.bills, as: "ann",
                json: Self.bill(payers: #"[{"userId":"ann","amount":4000},{"userId":"bob","amount":6000}]"#))
            #expect(created.status == .created)
            // then it names both, most first, and bob as its payerId
            #expect(Self.payers(created.object) == ["bob 6000", "ann 4000"])
            #expect(created.object["payerId"] as? String == "bob")
            let id = try #require(created.object["id"] as? String)
            let listed = try await client.send(.get, Self.bills, as: "bob")
            #expect((listed.object["items"] as? [[String: Any]] ?? []).map(Self.payers) == [["bob 6000", "ann 4000"]])
            // a single payer's bill answers as before, with a list of one
            let edited = try await client.send(.put, Self.bills + "/\(id)", as: "bob", json: Self.bill(payers: nil))
            #expect(edited.status == .ok)
            #expect(edited.object["payerId"] as? String == "ann")
            #expect(Self.payers(edited.object) == ["ann 10000"])
            let shown = try await client.send(.get, Self.bills + "/\(id)", as: "ann")
            #expect(Self.payers(shown.object) == ["ann 10000"])
        }
    }

    @Test(arguments: [
        (#"[{"userId":"ann","amount":4000},{"userId":"cat","amount":6000}]"#, "everyone who paid must be"),
        (#"[{"userId":"ann","amount":4000},{"userId":"bob","amount":5000}]"#, "must add up to the bill's"),
        (#"[{"userId":"ann","amount":5000},{"userId":"ann","amount":5000}]"#, "must name each payer once"),
        (#"[{"userId":"ann","amount":11000},{"userId":"bob","amount":-1000}]"#, "payers[1].amount must"),
        (
            #"[{"userId":"ann","amount":9223372036854775807},{"userId":"bob","amount":9223372036854775807}]"#,
            "payers[0].amount must"
        ),
        (#"[{"userId":"ann","amount":10000}]"#, "must name 2 to 20 people"),
        (#"[]"#, "must name 2 to 20 people"),
    ])
    func aWrongPayersListIsRefusedByName(payers: String, detail: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let created = try await client.send(.post, Self.bills, as: "ann", json: Self.bill(payers: payers))
            #expect(created.status == .badRequest)
            #expect(created.problem?.code == "invalid_payers")
            #expect(created.problem?.detail?.hasPrefix("payers: ") == true)
            #expect(created.problem?.detail?.contains(detail) == true, "\(created.problem?.detail ?? "")")
            // nothing was stored
            let listed = try await client.send(.get, Self.bills, as: "ann")
            #expect((listed.object["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func onePayerOrSeveralNotBoth() async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let both = try await client.send(
                .post, Self.bills, as: "ann",
                json: Self.bill(
                    payerId: "ann",
                    payers: #"[{"userId":"ann","amount":4000},{"userId":"bob","amount":6000}]"#))
            #expect(both.status == .badRequest)
            #expect(both.problem?.code == "invalid_payers")
            #expect(both.problem?.detail == "payers: send either payerId or payers, not both.")
        }
    }

    /// cat, in no household of theirs here, tries to add and to edit a bill with payers: the household is not found.
    @Test(arguments: StoreKind.allCases)
    func anOutsiderCannotAddOrEditABillWithPayers(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let payers = #"[{"userId":"ann","amount":4000},{"userId":"bob","amount":6000}]"#
            let created = try await client.send(.post, Self.bills, as: "ann", json: Self.bill(payers: nil))
            let id = try #require(created.object["id"] as? String)
            for (method, path) in [(HTTPRequest.Method.post, Self.bills), (.put, Self.bills + "/\(id)")] {
                let answer = try await client.send(method, path, as: "cat", json: Self.bill(payers: payers))
                #expect(answer.status == .notFound)
                #expect(answer.problem?.detail == "The household was not found.")
            }
            let shown = try await client.send(.get, Self.bills + "/\(id)", as: "bob")
            #expect(Self.payers(shown.object) == ["ann 10000"])
        }
    }

    /// The notice of a new bill goes to everyone who shares or paid it, once each, never to whoever added it.
    @Test func everyPayerAndDebtorIsToldOnce() {
        let bill = BillRecord(
            id: "b", householdId: "h", description: "Dinner", amount: 9_000, currency: "EUR", payerId: "dan",
            splitKind: "exact", createdBy: "ann", idempotencyKey: nil, createdAt: .now, updatedAt: .now)
        let added = StoredBill(
            bill: bill, shares: ["ann": 3_000, "bob": 6_000], paid: ["dan": 5_000, "bob": 3_000, "ann": 1_000])
        let notices = BillsController.billAddedNotices(added, by: "ann")
        #expect(notices.map(\.recipients) == [["bob", "dan"]])
        #expect(
            BillsController.billAddedNotices(StoredBill(bill: bill, shares: ["ann": 9_000]), by: "ann")
                .map(\.recipients) == [["dan"]])
    }
}
