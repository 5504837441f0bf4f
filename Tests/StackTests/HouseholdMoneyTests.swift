import Foundation
import PlatformKit
import TestSupport
import Testing

/// Balances and a payment through the gateway, the payer named by identity's directory (RooMate part 2). Single
/// routes of the money core are tested on the service's router (`MoneyRouterTests`, `HouseholdOverpaymentTests`).
@Suite struct HouseholdMoneyTests {
    struct Split: Encodable, Sendable {
        var kind: String
        var among: [String]? = nil
    }

    struct Bill: Encodable, Sendable {
        var description = "Groceries"
        var amount: Int
        var currency = "EUR"
        var split: Split
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
}

struct PaymentBody: Encodable, Sendable {
    var to: String
    var amount: Int
    var currency: String
}
