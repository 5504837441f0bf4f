import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// Bills and balances on the service's own router, on both engines: ann and bob share household `h`, cat is an
/// outsider unless a test brings her in.
@Suite struct MoneyRouterTests {
    static let household = "/v1/households/h"
    static let bills = household + "/bills"

    /// A bill of `amount` in EUR split as `split`, as JSON.
    static func bill(_ amount: Int, _ split: String = #"{"kind":"equal"}"#, extra: String = "") -> String {
        #"{"description":"Groceries","amount":\#(amount),"currency":"EUR"\#(extra),"split":\#(split)}"#
    }

    /// Each member's net in EUR, as `user` reads the balances.
    static func net(_ client: some TestClientProtocol, as user: String = "ann") async throws -> [String: Int] {
        let balances = try await client.decoded(WireBalances.self, .get, household + "/balances", as: user)
        let eur = balances.currencies.first { $0.currency == "EUR" }
        return Dictionary(uniqueKeysWithValues: (eur?.members ?? []).map { ($0.userId, $0.net) })
    }

    @Test func anAmountThatIsNotAWholeNumberOfMinorUnitsIsNamedNotCalledInvalidJSON() async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(
                .post, Self.bills, as: "ann",
                json: #"{"description": "Pizza", "amount": 100.5, "currency": "EUR", "split": {"kind": "equal"}}"#)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == "invalid_body")
            #expect(answer.problem?.errors == [.init(field: "amount", reason: "must be a whole number within range.")])
            #expect(answer.problem?.detail == "amount: must be a whole number within range.")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func splitsThatDoNotDivideStillAddUpToTheCent(kind: StoreKind) async throws {
        let fixture = try await HouseholdRouterFixture(kind)
        try await fixture.join("cat")
        try await fixture.app().test(.router) { client in
            func shares(_ body: String) async throws -> [String: Int] {
                try await client.decoded(WireBill.self, .post, Self.bills, as: "ann", json: body).shares
            }
            let thirds = try await shares(Self.bill(10_000))
            #expect(thirds.values.reduce(0, +) == 10_000)
            #expect(Set(thirds.values) == [3_333, 3_334])
            let cent = try await shares(Self.bill(1, #"{"kind":"equal","among":["ann","bob"]}"#))
            #expect(cent.values.reduce(0, +) == 1)
            let percent = try await shares(
                Self.bill(1_000, #"{"kind":"percentages","percentages":{"ann":33.33,"bob":33.33,"cat":33.34}}"#))
            #expect(percent.values.reduce(0, +) == 1_000)
            let weighted = try await shares(Self.bill(1_001, #"{"kind":"shares","shares":{"ann":2,"bob":1}}"#))
            #expect(weighted == ["ann": 667, "bob": 334])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRetriedBillWithTheSameKeyIsStoredOnce(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let key: HTTPFields = [IdempotencyKey.field: "k-1"]
            let first = try await client.send(.post, Self.bills, as: "ann", json: Self.bill(1_200), headers: key)
            let retry = try await client.send(.post, Self.bills, as: "ann", json: Self.bill(1_200), headers: key)
            #expect(first.status == .created)
            #expect(retry.status == .ok)
            #expect(first.object["id"] as? String != nil)
            #expect(first.object["id"] as? String == retry.object["id"] as? String)
            let listed = try await client.decoded(WirePage<WireBill>.self, .get, Self.bills, as: "bob")
            #expect(listed.items.count == 1)
            #expect(try await Self.net(client)["ann"] == 600)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func editingABillThenRevertingItLeavesBalancesUnchanged(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let original = Self.bill(4_999)
            let id = try await client.decoded(WireBill.self, .post, Self.bills, as: "ann", json: original).id
            let before = try await Self.net(client)
            let edited = try await client.send(
                .put, Self.bills + "/\(id)", as: "bob",
                json: Self.bill(6_000, #"{"kind":"exact","amounts":{"ann":6000,"bob":0}}"#, extra: #","payerId":"bob""#)
            )
            #expect(edited.status == .ok)
            #expect(try await Self.net(client) != before)
            _ = try await client.send(.put, Self.bills + "/\(id)", as: "ann", json: original)
            #expect(try await Self.net(client) == before)
        }
    }

    /// Any member attaches a bill's image and every member sees it; what is not an image, or too large, is refused
    /// by name; an outsider reaches nothing and attaches nothing.
    @Test(arguments: StoreKind.allCases)
    func aBillCarriesACheckedImageThatOnlyItsHouseholdSees(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let id = try await client.decoded(WireBill.self, .post, Self.bills, as: "ann", json: Self.bill(4_250)).id
            let image = Self.bills + "/\(id)/image"
            let receipt = TestImages.png(size: 72)
            func put(_ body: Data, as user: String) async throws -> (status: HTTPResponse.Status, code: String?) {
                try await client.execute(
                    uri: image, method: .put, headers: [.authorization: "Bearer \(user)"], body: ByteBuffer(data: body)
                ) { response in
                    let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
                    return (response.status, problem?.code)
                }
            }
            #expect(try await client.send(.get, image, as: "ann").status == .notFound)
            let fake = try await put(Data("%PDF-1.7".utf8), as: "ann")
            #expect(fake.status == .unsupportedMediaType)
            #expect(fake.code == "unsupported_media_type")
            let huge = try await put(receipt + Data(count: 2 << 20), as: "ann")
            #expect(huge.status == .contentTooLarge)
            #expect(huge.code == "payload_too_large")
            #expect(try await put(receipt, as: "cat").status == .notFound)
            #expect(try await client.send(.get, image, as: "ann").status == .notFound)

            #expect(try await put(receipt, as: "bob").status == .noContent)
            try await client.execute(uri: image, method: .get, headers: [.authorization: "Bearer ann"]) { response in
                #expect(response.status == .ok)
                #expect(Data(response.body.readableBytesView) == receipt)
                #expect(response.headers[.contentType] == "image/png")
            }
            #expect(try await client.send(.get, image, as: "cat").status == .notFound)
            #expect(try await client.send(.delete, image, as: "cat").status == .notFound)

            #expect(try await client.send(.delete, image, as: "ann").status == .noContent)
            #expect(try await client.send(.get, image, as: "ann").status == .notFound)
            #expect(try await client.send(.delete, image, as: "ann").status == .notFound)
        }
    }

    /// A stored bill is not found by an outsider whatever they do with it, and nothing they send moves the balances.
    @Test(arguments: StoreKind.allCases)
    func anOutsiderCannotReachAStoredBill(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let id = try await client.decoded(WireBill.self, .post, Self.bills, as: "ann", json: Self.bill(1_000)).id
            for (method, body) in [(HTTPRequest.Method.get, nil), (.put, Self.bill(100)), (.delete, nil)] {
                let answer = try await client.send(method, Self.bills + "/\(id)", as: "cat", json: body)
                #expect(answer.status == .notFound, "\(method)")
                #expect(answer.problem?.code == "not_found", "\(method)")
            }
            let paid = try await client.send(
                .post, Self.household + "/payments", as: "cat", json: #"{"to":"ann","amount":5,"currency":"EUR"}"#)
            #expect(paid.status == .notFound)
            #expect(try await Self.net(client)["ann"] == 500)
        }
    }
}

extension HouseholdRouterFixture {
    /// Brings `user` into household `h` by ann's invitation, accepted.
    func join(_ user: String) async throws {
        let now = clock.now
        try await seed { store in
            _ = try await store.invite(
                InvitationRecord(
                    id: "i-\(user)", householdId: "h", inviterId: "ann", inviteeId: user, status: "pending",
                    createdAt: now))
            _ = try await store.respond(to: "i-\(user)", as: user, accept: true, now: now)
        }
    }
}
