import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// Shared bills, balances and payments through the gateway (RooMate part 2, the money core).
@Suite struct HouseholdMoneyTests {
    struct Split: Encodable, Sendable {
        var kind: String
        var among: [String]? = nil
        var amounts: [String: Int]? = nil
        var percentages: [String: Double]? = nil
        var shares: [String: Int]? = nil
    }

    struct Bill: Encodable, Sendable {
        var description = "Groceries"
        var amount: Int
        var currency = "EUR"
        var payerId: String? = nil
        var split: Split
    }

    func shares(_ response: APIResponse) throws -> [String: Int] {
        try response.decode(WireBill.self).shares
    }

    func balances(_ world: HouseholdWorld, _ id: String, as user: TestUser) async throws
        -> [String: WireBalances.Currency]
    {
        let response = try await world.api.get(world.path(id, "/balances"), token: user.accessToken)
        let currencies = try response.decode(WireBalances.self).currencies
        return Dictionary(uniqueKeysWithValues: currencies.map { ($0.currency, $0) })
    }

    func net(_ currency: WireBalances.Currency?) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (currency?.members ?? []).map { ($0.userId, $0.net) })
    }

    @Test func anAmountThatIsNotAWholeNumberOfMinorUnitsIsNamedNotCalledInvalidJSON() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let response = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                raw: #"{"description": "Pizza", "amount": 100.5, "currency": "EUR", "split": {"kind": "equal"}}"#)
            #expect(response.status == 400)
            #expect(response.problem?.code == "invalid_body")
            #expect(response.problem?.errors == [.init(field: "amount", reason: "must be a whole number within range.")])
            #expect(response.problem?.detail == "amount: must be a whole number within range.")
        }
    }

    @Test func splitsThatDoNotDivideStillAddUpToTheCent() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            let thirds = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 10_000, split: Split(kind: "equal")))
            #expect(thirds.status == 201)
            #expect(try shares(thirds).values.reduce(0, +) == 10_000)
            #expect(Set(try shares(thirds).values) == [3_333, 3_334])
            let cent = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 1, split: Split(kind: "equal", among: [world.ann.id, world.bob.id])))
            #expect(try shares(cent).values.reduce(0, +) == 1)
            let percent = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(
                    amount: 1_000,
                    split: Split(
                        kind: "percentages",
                        percentages: [world.ann.id: 33.33, world.bob.id: 33.33, world.cat.id: 33.34])))
            #expect(try shares(percent).values.reduce(0, +) == 1_000)
            let weighted = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 1_001, split: Split(kind: "shares", shares: [world.ann.id: 2, world.bob.id: 1])))
            #expect(try shares(weighted) == [world.ann.id: 667, world.bob.id: 334])
        }
    }

    /// Paying more than I owe, or paying someone I owe nothing, is refused with what I owe; balances stay put.
    @Test func aPaymentMayNotExceedWhatThePayerOwes() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 1_000, split: Split(kind: "equal")))
            let tooMuch = try await world.api.post(
                world.path(id, "/payments"), token: world.bob.accessToken,
                json: PaymentBody(to: world.ann.id, amount: 501, currency: "EUR"))
            #expect(tooMuch.status == 409)
            #expect(tooMuch.problem?.code == "overpayment")
            #expect(tooMuch.problem?.owed == 500)
            let owedNothing = try await world.api.post(
                world.path(id, "/payments"), token: world.ann.accessToken,
                json: PaymentBody(to: world.bob.id, amount: 1, currency: "EUR"))
            #expect(owedNothing.status == 409)
            #expect(owedNothing.problem?.code == "overpayment")
            #expect(owedNothing.problem?.owed == 0)
            #expect(net(try await balances(world, id, as: world.ann)["EUR"])[world.ann.id] == 500)
            let exact = try await world.api.post(
                world.path(id, "/payments"), token: world.bob.accessToken,
                json: PaymentBody(to: world.ann.id, amount: 500, currency: "EUR"))
            #expect(exact.status == 201)
            #expect(try await balances(world, id, as: world.ann)["EUR"] == nil)
        }
    }

    /// A member who left owing money still sees the balances and pays; nothing else of the household is theirs.
    @Test func aFormerMemberStillSettlesUp() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 1_000, split: Split(kind: "equal")))
            let left = try await world.api.post(world.path(id, "/leave"), token: world.bob.accessToken)
            #expect(left.status == 204)
            let seen = try await balances(world, id, as: world.bob)["EUR"]
            #expect(seen?.mine.net == -500)
            #expect(try await world.api.get(world.path(id, "/notes"), token: world.bob.accessToken).status == 404)
            let paid = try await world.api.post(
                world.path(id, "/payments"), token: world.bob.accessToken,
                json: PaymentBody(to: world.ann.id, amount: 500, currency: "EUR"))
            #expect(paid.status == 201)
            #expect(try await world.api.get(world.path(id, "/balances"), token: world.bob.accessToken).status == 404)
        }
    }

    @Test func balancesSettleInTheFewestPaymentsAndPaymentsMoveThem() async throws {
        try await HouseholdWorld.run { world in
            _ = try await world.api.patch(IdentityPaths.me, token: world.bob.accessToken, json: ["displayName": "Bob"])
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            _ = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 9_000, split: Split(kind: "equal")))
            let eur = try await balances(world, id, as: world.bob)["EUR"]
            #expect(net(eur) == [world.ann.id: 6_000, world.bob.id: -3_000, world.cat.id: -3_000])
            let mine = eur?.mine
            #expect(mine?.owes.first?.to == world.ann.id)
            #expect(mine?.owes.first?.amount == 3_000)
            #expect(eur?.plan.count == 2)
            // bob settles up
            let paid = try await world.api.post(
                world.path(id, "/payments"), token: world.bob.accessToken,
                json: PaymentBody(to: world.ann.id, amount: 3_000, currency: "EUR"))
            #expect(paid.status == 201)
            #expect(world.notices.all.last?.kind == "household.payment")
            #expect(world.notices.all.last?.text == "Bob paid you 30.00 EUR.")
            let after = try await balances(world, id, as: world.ann)["EUR"]
            #expect(net(after) == [world.ann.id: 3_000, world.bob.id: 0, world.cat.id: -3_000])
            // another currency is kept apart, never converted
            _ = try await world.api.post(
                world.path(id, "/bills"), token: world.cat.accessToken,
                json: Bill(
                    amount: 500, currency: "usd", split: Split(kind: "equal", among: [world.ann.id, world.cat.id])))
            let all = try await balances(world, id, as: world.ann)
            #expect(Set(all.keys) == ["EUR", "USD"])
            #expect(net(all["USD"])[world.ann.id] == -250)
        }
    }

    @Test func editingABillThenRevertingItLeavesBalancesUnchanged() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let original = Bill(description: "Internet", amount: 4_999, split: Split(kind: "equal"))
            let created = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken, json: original)
            let billID = try created.decode(WireBill.self).id
            let before = net(try await balances(world, id, as: world.ann)["EUR"])
            let edited = try await world.api.send(
                .PUT, world.path(id, "/bills/\(billID)"), token: world.bob.accessToken,
                json: Bill(
                    description: "Internet", amount: 6_000, payerId: world.bob.id,
                    split: Split(kind: "exact", amounts: [world.ann.id: 6_000, world.bob.id: 0])))
            #expect(edited.status == 200)
            #expect(net(try await balances(world, id, as: world.ann)["EUR"]) != before)
            _ = try await world.api.send(
                .PUT, world.path(id, "/bills/\(billID)"), token: world.ann.accessToken, json: original)
            #expect(net(try await balances(world, id, as: world.ann)["EUR"]) == before)
        }
    }

    @Test func aRetriedBillWithTheSameKeyIsStoredOnce() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let bill = Bill(amount: 1_200, split: Split(kind: "equal"))
            let first = try await world.api.send(
                .POST, world.path(id, "/bills"), token: world.ann.accessToken, json: bill,
                headers: [("Idempotency-Key", "k-1")])
            let retry = try await world.api.send(
                .POST, world.path(id, "/bills"), token: world.ann.accessToken, json: bill,
                headers: [("Idempotency-Key", "k-1")])
            #expect(first.status == 201)
            #expect(retry.status == 200)
            #expect(try first.decode(WireBill.self).id == retry.decode(WireBill.self).id)
            let list = try await world.api.get(world.path(id, "/bills"), token: world.bob.accessToken)
            #expect(try list.decode(WirePage<WireBill>.self).items.count == 1)
            #expect(net(try await balances(world, id, as: world.ann)["EUR"])[world.ann.id] == 600)
        }
    }

    @Test func aBillCarriesACheckedImageThatOnlyItsHouseholdSees() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.household(world.cat)
            let bill = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 4_250, split: Split(kind: "equal")))
            let image = world.path(id, "/bills/\(try bill.decode(WireBill.self).id)/image")
            let receipt = HouseholdBoardTests.png
            #expect(try await world.api.get(image, token: world.ann.accessToken).status == 404)
            let fake = try await world.api.put(image, token: world.ann.accessToken, body: Data("%PDF-1.7".utf8))
            #expect(fake.status == 415)
            #expect(fake.problem?.code == "unsupported_media_type")
            let huge = try await world.api.put(
                image, token: world.ann.accessToken, body: receipt + Data(count: 2 << 20))
            #expect(huge.status == 413)
            // Another household's member reaches nothing, and attaches nothing.
            #expect(try await world.api.put(image, token: world.cat.accessToken, body: receipt).status == 404)
            #expect(try await world.api.get(image, token: world.ann.accessToken).status == 404)

            // Any member may attach it; every member sees it.
            #expect(try await world.api.put(image, token: world.bob.accessToken, body: receipt).status == 204)
            let shown = try await world.api.get(image, token: world.ann.accessToken)
            #expect(shown.status == 200)
            #expect(shown.body == receipt)
            #expect(shown.headers.first(name: "content-type") == "image/png")
            let etag = try #require(shown.headers.first(name: "etag"))
            #expect(
                try await world.api.get(image, token: world.bob.accessToken, headers: [("If-None-Match", etag)]).status
                    == 304)
            #expect(try await world.api.get(image, token: world.cat.accessToken).status == 404)
            #expect(try await world.api.delete(image, token: world.cat.accessToken).status == 404)

            #expect(try await world.api.delete(image, token: world.ann.accessToken).status == 204)
            #expect(try await world.api.get(image, token: world.ann.accessToken).status == 404)
            #expect(try await world.api.delete(image, token: world.ann.accessToken).status == 404)
        }
    }

    @Test func aMemberOfAnotherHouseholdCannotReachTheMoney() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            _ = try await world.household(world.cat)
            let bill = try await world.api.post(
                world.path(id, "/bills"), token: world.ann.accessToken,
                json: Bill(amount: 1_000, split: Split(kind: "equal")))
            let billID = try bill.decode(WireBill.self).id
            let body = Data(#"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"equal"}}"#.utf8)
            for (method, rest, payload) in [
                (HTTPMethod.GET, "/bills", nil), (.POST, "/bills", body), (.GET, "/bills/\(billID)", nil),
                (.PUT, "/bills/\(billID)", body), (.DELETE, "/bills/\(billID)", nil), (.GET, "/balances", nil),
                (.POST, "/payments", Data(#"{"to":"\#(world.ann.id)","amount":5,"currency":"EUR"}"#.utf8)),
            ] as [(HTTPMethod, String, Data?)] {
                let response = try await world.api.send(
                    method, world.path(id, rest), token: world.cat.accessToken, body: payload,
                    headers: payload == nil ? [] : [("Content-Type", "application/json")])
                #expect(response.status == 404, "\(method) \(rest)")
            }
            #expect(net(try await balances(world, id, as: world.ann)["EUR"])[world.ann.id] == 500)
        }
    }
}

struct PaymentBody: Encodable, Sendable {
    var to: String
    var amount: Int
    var currency: String
}
