import Foundation
import HouseholdService
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// A RooMate bill paid by several people through the gateway (issue 48, Splitwise's "paid by multiple people"): each
/// payer with what they paid, balances and the settle-up plan following, an edit back to one payer, and a member of
/// another household refused.
@Suite struct RooMateSeveralPayersTests {
    struct Payer: Codable, Sendable, Equatable {
        var userId: String
        var amount: Int
    }

    struct Bill: Encodable, Sendable {
        struct Split: Encodable, Sendable { var kind = "equal" }
        var description = "Big shop"
        var amount = 9_000
        var currency = "EUR"
        var split = Split()
        var payerId: String? = nil
        var payers: [Payer]? = nil
    }

    struct PaidBill: Decodable {
        var id: String
        var payerId: String
        var payers: [Payer]
        var shares: [String: Int]
    }

    @Test func aBillPaidByTwoIsSplitThreeWaysAndSettled() async throws {
        try await HouseholdWorld.run { world in
            // given ann, bob and cat in one flat, and eve in a flat of her own
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            let eve = try await world.stack.register("eve")
            _ = try await world.household(eve)
            let (ann, bob, cat) = (world.ann.id, world.bob.id, world.cat.id)
            func balances() async throws -> WireBalances.Currency? {
                let answer = try await world.api.get(world.path(id, "/balances"), token: world.token(world.cat))
                return try answer.decode(WireBalances.self).currencies.first { $0.currency == "EUR" }
            }

            // when cat adds a 90.00 shop ann paid 60.00 of and bob 30.00, split three ways
            let several = Bill(payers: [Payer(userId: ann, amount: 6_000), Payer(userId: bob, amount: 3_000)])
            let created = try await world.api.post(
                world.path(id, "/bills"), token: world.token(world.cat), json: several)
            #expect(created.status == 201, "\(created.text)")
            let bill = try created.decode(PaidBill.self)
            #expect(bill.payers == several.payers && bill.payerId == ann)
            #expect(bill.shares.values.allSatisfy { $0 == 3_000 })

            // then ann is owed 30.00, bob is even, cat owes 30.00, and cat pays ann
            var euros = try #require(try await balances())
            #expect(
                Dictionary(uniqueKeysWithValues: euros.members.map { ($0.userId, $0.net) }) == [
                    ann: 3_000, bob: 0, cat: -3_000,
                ])
            #expect(euros.plan.map { "\($0.from)>\($0.to) \($0.amount)" } == ["\(cat)>\(ann) 3000"])
            #expect(euros.mine.owes.map(\.amount) == [3_000])
            let shown = try await world.api.get(world.path(id, "/bills/\(bill.id)"), token: world.token(world.bob))
            #expect(try shown.decode(PaidBill.self).payers == several.payers)

            // eve, of another household, may neither add nor edit a bill with payers here
            let refusedAdd = try await world.api.post(world.path(id, "/bills"), token: eve.accessToken, json: several)
            #expect(refusedAdd.status == 404)
            #expect(refusedAdd.problem?.code == "not_found")
            let refusedEdit = try await world.api.send(
                .PUT, world.path(id, "/bills/\(bill.id)"), token: eve.accessToken, json: several)
            #expect(refusedEdit.status == 404)
            // nor be named as a payer
            let stranger = Bill(
                payers: [Payer(userId: ann, amount: 6_000), Payer(userId: eve.id, amount: 3_000)])
            let refusedPayer = try await world.api.send(
                .PUT, world.path(id, "/bills/\(bill.id)"), token: world.token(world.ann), json: stranger)
            #expect(refusedPayer.status == 400)
            #expect(refusedPayer.problem?.code == "invalid_payers")

            // when bob edits it back to ann alone, the balances follow: ann +60.00, bob and cat -30.00 each
            let alone = try await world.api.send(
                .PUT, world.path(id, "/bills/\(bill.id)"), token: world.token(world.bob), json: Bill(payerId: ann))
            #expect(alone.status == 200, "\(alone.text)")
            #expect(try alone.decode(PaidBill.self).payers == [Payer(userId: ann, amount: 9_000)])
            euros = try #require(try await balances())
            #expect(
                Dictionary(uniqueKeysWithValues: euros.members.map { ($0.userId, $0.net) }) == [
                    ann: 6_000, bob: -3_000, cat: -3_000,
                ])
            #expect(euros.plan.map(\.to) == [ann, ann])
        }
    }
}
