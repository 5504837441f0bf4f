import Foundation
import NIOHTTP1
import PlatformKit
import TestSupport
import Testing

/// Grocery lists and shopping trips through the gateway (RooMate part 2).
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

    /// The items of a personal or the communal list.
    func groceries(_ response: APIResponse) throws -> [WireGroceryItem] {
        try response.decode(WireItems<WireGroceryItem>.self).items
    }

    func net(_ world: HouseholdWorld, _ id: String) async throws -> [String: Int] {
        let response = try await world.api.get(world.path(id, "/balances"), token: world.ann.accessToken)
        let eur = try response.decode(WireBalances.self).currencies.first { $0.currency == "EUR" }
        return Dictionary(uniqueKeysWithValues: (eur?.members ?? []).map { ($0.userId, $0.net) })
    }

    @Test func suggestionsComeFromTheHouseholdsHistoryMostUsedFirst() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            try await add(world, id, world.ann, Item(name: "Milk"))
            try await add(world, id, world.bob, Item(name: "milk"))
            try await add(world, id, world.bob, Item(name: "Mints", communal: true))
            try await add(world, id, world.bob, Item(name: "Mince", visible: false))
            try await add(world, id, world.bob, Item(name: "Bread"))
            func suggested(_ query: String, as user: TestUser) async throws -> [String] {
                let response = try await world.api.get(
                    world.path(id, "/groceries/suggestions" + query), token: user.accessToken)
                return try response.decode(WireItems<WireGrocerySuggestion>.self).items.map(\.name)
            }
            // bob's hidden personal item is suggested to him only
            #expect(try await suggested("?prefix=MI", as: world.ann) == ["Milk", "Mints"])
            #expect(try await suggested("?prefix=mi", as: world.bob) == ["Milk", "Mince", "Mints"])
            #expect(try await suggested("?prefix=mi&limit=1", as: world.ann) == ["Milk"])
            #expect(try await suggested("?prefix=%25", as: world.ann).isEmpty)
            let tooMany = try await world.api.get(
                world.path(id, "/groceries/suggestions?limit=101"), token: world.ann.accessToken)
            #expect(tooMany.problem?.code == "invalid_limit")
            let outsider = try await world.api.get(
                world.path(id, "/groceries/suggestions?prefix=mi"), token: world.cat.accessToken)
            #expect(outsider.status == 404)
        }
    }

    @Test func theHouseholdListMergesTheSameItemWhateverItsCaseOrPlural() async throws {
        try await HouseholdWorld.run { world in
            // given
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            try await add(world, id, world.ann, Item(name: "Eggs", quantity: 2, note: "free range"))
            try await add(world, id, world.bob, Item(name: "egg"))
            try await add(world, id, world.cat, Item(name: "EGGS", communal: true))
            try await add(world, id, world.cat, Item(name: "Toilet paper", quantity: 4, communal: true))
            try await add(world, id, world.bob, Item(name: "Chocolate", visible: false))
            try await add(world, id, world.bob, Item(name: "Tomatoes"))
            try await add(world, id, world.ann, Item(name: "tomato"))
            // when
            let household = try lines(
                try await world.api.get(world.path(id, "/groceries"), token: world.cat.accessToken))
            // then
            #expect(household.map(\.name) == ["Eggs", "Toilet paper", "Tomatoes"])
            let eggs = try #require(household.first)
            #expect(eggs.quantity == 4)
            #expect(eggs.communalQuantity == 1)
            #expect(
                Set(eggs.wantedBy.map { "\($0.userId):\($0.quantity)" }) == ["\(world.ann.id):2", "\(world.bob.id):1"])
            #expect(eggs.notes == ["free range"])
            #expect(household[2].quantity == 2)
            // the hidden item is on bob's own list only
            let bobs = try groceries(
                try await world.api.get(world.path(id, "/groceries/personal"), token: world.bob.accessToken))
            #expect(Set(bobs.map(\.name)) == ["egg", "Chocolate", "Tomatoes"])
            let anns = try groceries(
                try await world.api.get(world.path(id, "/groceries/personal"), token: world.ann.accessToken))
            #expect(anns.count == 2)
            let communal = try groceries(
                try await world.api.get(world.path(id, "/groceries/communal"), token: world.ann.accessToken))
            #expect(communal.count == 2)
        }
    }

    @Test func onlyTheOwnerChangesAPersonalItemAndAnyMemberACommunalOne() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            let milk = try await add(world, id, world.ann, Item(name: "Milk"))
            let secret = try await add(world, id, world.ann, Item(name: "Cake", visible: false))
            let soap = try await add(world, id, world.ann, Item(name: "Soap", communal: true))
            let edited = try await world.api.patch(
                world.path(id, "/groceries/\(milk)"), token: world.ann.accessToken,
                json: ["quantity": "3"])
            #expect(edited.status == 400, "quantity must be a number")
            let ok = try await world.api.send(
                .PATCH, world.path(id, "/groceries/\(milk)"), token: world.ann.accessToken,
                body: Data(#"{"quantity":3,"note":"oat","name":"Milks"}"#.utf8),
                headers: [("Content-Type", "application/json")])
            #expect(ok.status == 200)
            let changed = try ok.decode(WireGroceryItem.self)
            #expect(changed.quantity == 3)
            #expect(changed.note == "oat")
            let theirs = try await world.api.patch(
                world.path(id, "/groceries/\(milk)"), token: world.bob.accessToken, json: ["name": "Beer"])
            #expect(theirs.status == 403)
            #expect(theirs.problem?.code == "not_item_owner")
            #expect(
                try await world.api.delete(world.path(id, "/groceries/\(secret)"), token: world.bob.accessToken).status
                    == 404)
            #expect(
                try await world.api.patch(
                    world.path(id, "/groceries/\(soap)"), token: world.bob.accessToken, json: ["name": "Hand soap"]
                ).status == 200)
            #expect(
                try await world.api.delete(world.path(id, "/groceries/\(soap)"), token: world.bob.accessToken).status
                    == 204)
            #expect(
                try await world.api.delete(world.path(id, "/groceries/\(milk)"), token: world.ann.accessToken).status
                    == 204)
            for body in [
                #"{"name":""}"#, #"{"name":"x","quantity":0}"#, #"{"name":"x","quantity":1000}"#, #"{"quantity":1}"#,
            ] {
                let bad = try await world.api.post(
                    world.path(id, "/groceries"), token: world.ann.accessToken, raw: body)
                #expect(bad.status == 400, "\(body)")
            }
            let left = try groceries(
                try await world.api.get(world.path(id, "/groceries/personal"), token: world.ann.accessToken))
            #expect(left.map(\.name) == ["Cake"])
        }
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

    @Test(arguments: [1, 2, 100, 1_001, 99_999])
    func unpricedTripsSplitEquallyByItemAndAddUpToTheCent(total: Int) async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            try await add(world, id, world.ann, Item(name: "Soap", communal: true))
            try await add(world, id, world.ann, Item(name: "Gum"))
            try await add(world, id, world.bob, Item(name: "Bread", quantity: 2))
            try await add(world, id, world.cat, Item(name: "bread"))
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: world.bob.accessToken,
                json: Trip(total: total, items: [Pick(name: "soap"), Pick(name: "gum"), Pick(name: "bread")]))
            #expect(trip.status == 201)
            let shares = try trip.decode(WireTrip.self).shares
            #expect(shares.values.reduce(0, +) == total)
            if total == 99_999 {
                // each line 33,333: soap a third each (11,111), gum all ann's, bread 2:1 bob:cat (22,222/11,111)
                #expect(shares == [world.ann.id: 44_444, world.bob.id: 33_333, world.cat.id: 22_222])
            }
            let balances = try await net(world, id)
            #expect(balances.values.reduce(0, +) == 0)
        }
    }

    @Test func someItemsPricedLeaveTheRestToTheUnpricedOnes() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            try await add(world, id, world.ann, Item(name: "Wine"))
            try await add(world, id, world.bob, Item(name: "Rice"))
            try await add(world, id, world.bob, Item(name: "Salt", communal: true))
            let tooMuch = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken,
                json: Trip(total: 500, items: [Pick(name: "wine", price: 600), Pick(name: "rice")]))
            #expect(tooMuch.status == 400)
            let notListed = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken,
                json: Trip(total: 500, items: [Pick(name: "caviar")]))
            #expect(notListed.problem?.code == "invalid_items")
            #expect(
                try lines(try await world.api.get(world.path(id, "/groceries"), token: world.ann.accessToken)).count
                    == 3)
            #expect(try await net(world, id).isEmpty)
            let trip = try await world.api.post(
                world.path(id, "/trips"), token: world.ann.accessToken,
                json: Trip(
                    total: 1_001, items: [Pick(name: "wine", price: 600), Pick(name: "rice"), Pick(name: "salt")]))
            // wine 6.00 to ann; rice and salt share 4.01: 2.01/2.00 or 2.00/2.01; salt halves
            let shares = try trip.decode(WireTrip.self).shares
            #expect(shares.values.reduce(0, +) == 1_001)
            #expect((shares[world.ann.id] ?? 0) >= 700 && (shares[world.ann.id] ?? 0) <= 701)
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
            #expect(try await net(world, id) == before)
        }
    }

    @Test func aRetriedTripIsStoredOnceAndTheReceiptMustBeAnImage() async throws {
        try await HouseholdWorld.run { world in
            let id = try await world.household(world.ann, with: [world.bob])
            try await add(world, id, world.bob, Item(name: "Apples", quantity: 6))
            let body = Trip(total: 450, items: [Pick(name: "apple")])
            let first = try await world.api.send(
                .POST, world.path(id, "/trips"), token: world.ann.accessToken, json: body,
                headers: [("Idempotency-Key", "trip-1")])
            let retry = try await world.api.send(
                .POST, world.path(id, "/trips"), token: world.ann.accessToken, json: body,
                headers: [("Idempotency-Key", "trip-1")])
            #expect(first.status == 201)
            #expect(retry.status == 200)
            let tripID = try first.decode(WireTrip.self).id
            #expect(try retry.decode(WireTrip.self).id == tripID)
            #expect(try await net(world, id) == [world.ann.id: 450, world.bob.id: -450])
            let receipt = world.path(id, "/trips/\(tripID)/receipt")
            #expect(
                try await world.api.put(receipt, token: world.ann.accessToken, body: Data("%PDF-1.4".utf8)).status
                    == 415)
            #expect(
                try await world.api.put(receipt, token: world.bob.accessToken, body: HouseholdBoardTests.png).status
                    == 403)
            #expect(try await world.api.get(receipt, token: world.bob.accessToken).status == 404)
            #expect(
                try await world.api.put(receipt, token: world.ann.accessToken, body: HouseholdBoardTests.png).status
                    == 204)
            let photo = try await world.api.get(receipt, token: world.bob.accessToken)
            #expect(photo.body == HouseholdBoardTests.png)
            #expect(photo.headers.first(name: "content-type") == "image/png")
            let trip = try await world.api.get(world.path(id, "/trips/\(tripID)"), token: world.bob.accessToken)
            #expect(try trip.decode(WireTrip.self).hasReceipt == true)
        }
    }
}
