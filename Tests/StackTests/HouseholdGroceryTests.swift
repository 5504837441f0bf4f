import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// Shopping trips through the gateway and what they tell the household (RooMate part 2). Single routes of the lists
/// and trips are tested on the service's router (`GroceryRouterTests`).
@Suite struct HouseholdGroceryTests {
    struct Item: Encodable, Sendable {
        var name: String
        var quantity: Int? = nil
        var note: String? = nil
        var communal: Bool? = nil
        var visible: Bool? = nil
    }

    struct Pick: Encodable, Sendable {
        var name: String
        var price: Int? = nil
    }

    struct Trip: Encodable, Sendable {
        var total: Int
        var currency = "EUR"
        var items: [Pick]
    }

    struct TripEdit: Encodable, Sendable {
        struct Line: Encodable, Sendable {
            var name: String
            var price: Int? = nil
            var communalQuantity: Int? = nil
            var wantedBy: [String: Int]? = nil
        }
        var total: Int? = nil
        var items: [Line]
    }

    @discardableResult
    func add(_ world: HouseholdWorld, _ id: String, _ user: TestUser, _ item: Item) async throws -> String {
        let response = try await world.api.post(world.path(id, "/groceries"), token: user.accessToken, json: item)
        #expect(response.status == 201, "\(response.text)")
        return try response.decode(WireGroceryItem.self).id
    }

    /// The merged lines of the household's list.
    func lines(_ response: APIResponse) throws -> [WireGroceryLine] {
        try response.decode(WireItems<WireGroceryLine>.self).items
    }

    func net(_ world: HouseholdWorld, _ id: String) async throws -> [String: Int] {
        let response = try await world.api.get(world.path(id, "/balances"), token: world.ann.accessToken)
        let eur = try response.decode(WireBalances.self).currencies.first { $0.currency == "EUR" }
        return Dictionary(uniqueKeysWithValues: (eur?.members ?? []).map { ($0.userId, $0.net) })
    }

    @Test func goingShoppingTellsEveryoneElse() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            let response = try await world.api.post(world.path(id, "/shopping"), token: world.bob.accessToken)
            #expect(response.status == 200)
            let notice = try #require(world.notices.all.last)
            #expect(notice.kind == "household.shopping_started")
            #expect(Set(notice.recipients) == [world.ann.id, world.cat.id])
        }
    }

    @Test func aTripChargesCommunalItemsToAllAndPersonalOnesToWhoWantedThem() async throws {
        try await HouseholdWorld.run { world in
            // given
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            try await add(world, id, world.cat, Item(name: "Toilet paper", communal: true))
            try await add(world, id, world.ann, Item(name: "Oat milk"))
            try await add(world, id, world.bob, Item(name: "oat milk"))
            try await add(world, id, world.ann, Item(name: "Chocolate"))
            try await add(world, id, world.bob, Item(name: "Beer"))
            // when ann pays 10.00 with prices for everything she picked
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken,
                json: Trip(
                    total: 1_000,
                    items: [
                        Pick(name: "toilet papers", price: 300), Pick(name: "Oat milk", price: 400),
                        Pick(name: "chocolate", price: 300),
                    ]))
            // then
            #expect(trip.status == 201, "\(trip.text)")
            let stored = try trip.decode(WireTrip.self)
            #expect(stored.shares == [world.ann.id: 600, world.bob.id: 300, world.cat.id: 100])
            let left = try lines(try await world.api.get(world.path(id, "/groceries"), token: world.bob.accessToken))
            #expect(left.map(\.name) == ["Beer"])
            #expect(try await net(world, id) == [world.ann.id: 400, world.bob.id: -300, world.cat.id: -100])
            let notice = try #require(world.notices.all.last)
            #expect(notice.kind == "household.trip_completed")
            #expect(Set(notice.recipients) == [world.bob.id, world.cat.id])
            let history = try await world.api.get(world.path(id, "/trips"), token: world.cat.accessToken)
                .decode(WirePage<WireTrip>.self).items
            #expect(history.count == 1)
            #expect(history.first?.items.count == 3)
            // the trip's bill is in the bill history but changes only through the trip
            let billID = stored.billId
            let bill = try await world.api.get(world.path(id, "/bills/\(billID)"), token: world.bob.accessToken)
            #expect(try bill.decode(WireBill.self).tripId == stored.id)
            let put = try await world.api.send(
                .PUT, world.path(id, "/bills/\(billID)"), token: world.ann.accessToken,
                body: Data(#"{"description":"x","amount":100,"currency":"EUR","split":{"kind":"equal"}}"#.utf8),
                headers: [("Content-Type", "application/json")])
            #expect(put.problem?.code == "bill_of_trip")
            #expect(
                try await world.api.delete(world.path(id, "/bills/\(billID)"), token: world.ann.accessToken).status
                    == 409)
        }
    }

    @Test func editingATripRecomputesItsExpenseAndTellsTheHousehold() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            try await add(world, id, world.ann, Item(name: "Coffee", communal: true))
            try await add(world, id, world.bob, Item(name: "Tea"))
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken,
                json: Trip(total: 900, items: [Pick(name: "coffee"), Pick(name: "tea")]))
            let tripID = try trip.decode(WireTrip.self).id
            let before = try await net(world, id)
            // bob's tea was in fact not bought; the total was 6.00
            let edit = TripEdit(total: 600, items: [.init(name: "Coffee", communalQuantity: 1)])
            let notShopper = try await world.api.send(
                .PUT, world.path(id, "/trips/\(tripID)"), token: world.bob.accessToken, json: edit)
            #expect(notShopper.status == 403)
            let edited = try await world.api.send(
                .PUT, world.path(id, "/trips/\(tripID)"), token: world.ann.accessToken, json: edit)
            #expect(edited.status == 200, "\(edited.text)")
            #expect(
                try edited.decode(WireTrip.self).shares == [world.ann.id: 200, world.bob.id: 200, world.cat.id: 200])
            #expect(try await net(world, id) == [world.ann.id: 400, world.bob.id: -200, world.cat.id: -200])
            let notice = try #require(world.notices.all.last)
            #expect(notice.kind == "household.trip_edited")
            #expect(Set(notice.recipients) == [world.bob.id, world.cat.id])
            // reverting the edit restores the balances exactly
            let revert = TripEdit(
                total: 900,
                items: [.init(name: "Coffee", communalQuantity: 1), .init(name: "Tea", wantedBy: [world.bob.id: 1])])
            _ = try await world.api.send(
                .PUT, world.path(id, "/trips/\(tripID)"), token: world.ann.accessToken, json: revert)
            #expect(try await net(world, id) == before)
            let stranger = TripEdit(items: [.init(name: "Tea", wantedBy: ["stranger": 1])])
            let bad = try await world.api.send(
                .PUT, world.path(id, "/trips/\(tripID)"), token: world.ann.accessToken, json: stranger)
            #expect(bad.status == 400)
            #expect(bad.problem?.code == "invalid_members", "\(String(describing: bad.problem))")
            #expect(try await net(world, id) == before)
        }
    }
}
