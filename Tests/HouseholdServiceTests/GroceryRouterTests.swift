import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// Grocery lists and shopping trips on the service's own router, on both engines: ann and bob share household `h`,
/// cat is an outsider unless a test brings her in.
@Suite struct GroceryRouterTests {
    static let household = "/v1/households/h"
    static let groceries = household + "/groceries"
    static let trips = household + "/trips"

    /// Adds an item as `user` (`json` is the item) and returns its id.
    @discardableResult
    static func add(_ client: some TestClientProtocol, _ user: String, _ json: String) async throws -> String {
        try await client.decoded(WireGroceryItem.self, .post, groceries, as: user, json: json).id
    }

    /// A trip of `total` EUR picking `items` (`{"name":…,"price":…}` objects), as JSON.
    static func trip(_ total: Int, _ items: String) -> String {
        #"{"total":\#(total),"currency":"EUR","items":[\#(items)]}"#
    }

    /// Each member's net in EUR, as ann reads the balances.
    static func net(_ client: some TestClientProtocol) async throws -> [String: Int] {
        try await MoneyRouterTests.net(client)
    }

    @Test(arguments: StoreKind.allCases)
    func suggestionsComeFromTheHouseholdsHistoryMostUsedFirst(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            try await Self.add(client, "ann", #"{"name":"Milk"}"#)
            try await Self.add(client, "bob", #"{"name":"milk"}"#)
            try await Self.add(client, "bob", #"{"name":"Mints","communal":true}"#)
            try await Self.add(client, "bob", #"{"name":"Mince","visible":false}"#)
            try await Self.add(client, "bob", #"{"name":"Bread"}"#)
            func suggested(_ query: String, as user: String) async throws -> [String] {
                try await client.decoded(
                    WireItems<WireGrocerySuggestion>.self, .get, Self.groceries + "/suggestions" + query, as: user
                ).items.map(\.name)
            }
            // bob's hidden personal item is suggested to him only
            #expect(try await suggested("?prefix=MI", as: "ann") == ["Milk", "Mints"])
            #expect(try await suggested("?prefix=mi", as: "bob") == ["Milk", "Mince", "Mints"])
            #expect(try await suggested("?prefix=mi&limit=1", as: "ann") == ["Milk"])
            let tooMany = try await client.send(.get, Self.groceries + "/suggestions?limit=101", as: "ann")
            #expect(tooMany.status == .badRequest)
            #expect(tooMany.problem?.code == "invalid_limit")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theHouseholdListMergesTheSameItemWhateverItsCaseOrPlural(kind: StoreKind) async throws {
        let fixture = try await HouseholdRouterFixture(kind)
        try await fixture.join("cat")
        try await fixture.app().test(.router) { client in
            // given
            try await Self.add(client, "ann", #"{"name":"Eggs","quantity":2,"note":"free range"}"#)
            try await Self.add(client, "bob", #"{"name":"egg"}"#)
            try await Self.add(client, "cat", #"{"name":"EGGS","communal":true}"#)
            try await Self.add(client, "cat", #"{"name":"Toilet paper","quantity":4,"communal":true}"#)
            try await Self.add(client, "bob", #"{"name":"Chocolate","visible":false}"#)
            try await Self.add(client, "bob", #"{"name":"Tomatoes"}"#)
            try await Self.add(client, "ann", #"{"name":"tomato"}"#)
            // when
            let household = try await client.decoded(
                WireItems<WireGroceryLine>.self, .get, Self.groceries, as: "cat"
            ).items
            // then
            #expect(household.map(\.name) == ["Eggs", "Toilet paper", "Tomatoes"])
            let eggs = try #require(household.first)
            #expect(eggs.quantity == 4)
            #expect(eggs.communalQuantity == 1)
            #expect(Set(eggs.wantedBy.map { "\($0.userId):\($0.quantity)" }) == ["ann:2", "bob:1"])
            #expect(eggs.notes == ["free range"])
            #expect(household[2].quantity == 2)
            // the hidden item is on bob's own list only
            func list(_ which: String, as user: String) async throws -> [String] {
                try await client.decoded(
                    WireItems<WireGroceryItem>.self, .get, Self.groceries + "/" + which, as: user
                ).items.map(\.name)
            }
            #expect(Set(try await list("personal", as: "bob")) == ["egg", "Chocolate", "Tomatoes"])
            #expect(try await list("personal", as: "ann").count == 2)
            #expect(try await list("communal", as: "ann").count == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func onlyTheOwnerChangesAPersonalItemAndAnyMemberACommunalOne(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let milk = try await Self.add(client, "ann", #"{"name":"Milk"}"#)
            let secret = try await Self.add(client, "ann", #"{"name":"Cake","visible":false}"#)
            let soap = try await Self.add(client, "ann", #"{"name":"Soap","communal":true}"#)
            let item = { (id: String) in Self.groceries + "/\(id)" }
            let text = try await client.send(.patch, item(milk), as: "ann", json: #"{"quantity":"3"}"#)
            #expect(text.status == .badRequest, "quantity must be a number")
            #expect(text.problem?.code == "invalid_body")
            let ok = try await client.decoded(
                WireGroceryItem.self, .patch, item(milk), as: "ann",
                json: #"{"quantity":3,"note":"oat","name":"Milks"}"#)
            #expect(ok.quantity == 3)
            #expect(ok.note == "oat")
            let theirs = try await client.send(.patch, item(milk), as: "bob", json: #"{"name":"Beer"}"#)
            #expect(theirs.status == .forbidden)
            #expect(theirs.problem?.code == "not_item_owner")
            #expect(try await client.send(.delete, item(secret), as: "bob").status == .notFound)
            #expect(
                try await client.send(.patch, item(soap), as: "bob", json: #"{"name":"Hand soap"}"#).status == .ok)
            #expect(try await client.send(.delete, item(soap), as: "bob").status == .noContent)
            #expect(try await client.send(.delete, item(milk), as: "ann").status == .noContent)
            for (body, code) in [
                (#"{"name":""}"#, "invalid_name"), (#"{"name":"x","quantity":0}"#, "invalid_quantity"),
                (#"{"name":"x","quantity":1000}"#, "invalid_quantity"), (#"{"quantity":1}"#, "invalid_body"),
            ] {
                let bad = try await client.send(.post, Self.groceries, as: "ann", json: body)
                #expect(bad.status == .badRequest, "\(body)")
                #expect(bad.problem?.code == code, "\(body): \(String(describing: bad.problem))")
            }
            let left = try await client.decoded(
                WireItems<WireGroceryItem>.self, .get, Self.groceries + "/personal", as: "ann")
            #expect(left.items.map(\.name) == ["Cake"])
        }
    }

    @Test(arguments: StoreKind.allCases, [1, 2, 100, 1_001, 99_999])
    func unpricedTripsSplitEquallyByItemAndAddUpToTheCent(kind: StoreKind, total: Int) async throws {
        let fixture = try await HouseholdRouterFixture(kind)
        try await fixture.join("cat")
        try await fixture.app().test(.router) { client in
            try await Self.add(client, "ann", #"{"name":"Soap","communal":true}"#)
            try await Self.add(client, "ann", #"{"name":"Gum"}"#)
            try await Self.add(client, "bob", #"{"name":"Bread","quantity":2}"#)
            try await Self.add(client, "cat", #"{"name":"bread"}"#)
            let trip = try await client.decoded(
                WireTrip.self, .post, Self.trips, as: "bob",
                json: Self.trip(total, #"{"name":"soap"},{"name":"gum"},{"name":"bread"}"#))
            #expect(trip.shares.values.reduce(0, +) == total)
            if total == 99_999 {
                // each line 33,333: soap a third each (11,111), gum all ann's, bread 2:1 bob:cat (22,222/11,111)
                #expect(trip.shares == ["ann": 44_444, "bob": 33_333, "cat": 22_222])
            }
            #expect(try await Self.net(client).values.reduce(0, +) == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func someItemsPricedLeaveTheRestToTheUnpricedOnes(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            try await Self.add(client, "ann", #"{"name":"Wine"}"#)
            try await Self.add(client, "bob", #"{"name":"Rice"}"#)
            try await Self.add(client, "bob", #"{"name":"Salt","communal":true}"#)
            let tooMuch = try await client.send(
                .post, Self.trips, as: "ann", json: Self.trip(500, #"{"name":"wine","price":600},{"name":"rice"}"#))
            #expect(tooMuch.status == .badRequest)
            #expect(tooMuch.problem?.code == "invalid_items")
            #expect(tooMuch.problem?.detail == "items: the item prices add up to more than the total paid.")
            let notListed = try await client.send(
                .post, Self.trips, as: "ann", json: Self.trip(500, #"{"name":"caviar"}"#))
            #expect(notListed.problem?.code == "invalid_items")
            let lines = try await client.decoded(WireItems<WireGroceryLine>.self, .get, Self.groceries, as: "ann")
            #expect(lines.items.count == 3)
            #expect(try await Self.net(client).isEmpty)
            let trip = try await client.decoded(
                WireTrip.self, .post, Self.trips, as: "ann",
                json: Self.trip(1_001, #"{"name":"wine","price":600},{"name":"rice"},{"name":"salt"}"#))
            // wine 6.00 to ann; rice and salt share 4.01: 2.01/2.00 or 2.00/2.01; salt halves
            #expect(trip.shares.values.reduce(0, +) == 1_001)
            #expect((700...701).contains(trip.shares["ann"] ?? 0))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRetriedTripIsStoredOnceAndTheReceiptMustBeAnImage(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            try await Self.add(client, "bob", #"{"name":"Apples","quantity":6}"#)
            let body = Self.trip(450, #"{"name":"apple"}"#)
            let key: HTTPFields = [IdempotencyKey.field: "trip-1"]
            let first = try await client.send(.post, Self.trips, as: "ann", json: body, headers: key)
            let retry = try await client.send(.post, Self.trips, as: "ann", json: body, headers: key)
            #expect(first.status == .created)
            #expect(retry.status == .ok)
            let tripID = try #require(first.object["id"] as? String)
            #expect(retry.object["id"] as? String == tripID)
            #expect(try await Self.net(client) == ["ann": 450, "bob": -450])
            let receipt = Self.trips + "/\(tripID)/receipt"
            func put(_ body: Data, as user: String) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: receipt, method: .put, headers: [.authorization: "Bearer \(user)"],
                    body: ByteBuffer(data: body)
                ) { $0.status }
            }
            let png = TestImages.png(size: 72)
            #expect(try await put(Data("%PDF-1.4".utf8), as: "ann") == .unsupportedMediaType)
            #expect(try await put(png, as: "bob") == .forbidden)
            #expect(try await client.send(.get, receipt, as: "bob").status == .notFound)
            #expect(try await put(png, as: "ann") == .noContent)
            try await client.execute(uri: receipt, method: .get, headers: [.authorization: "Bearer bob"]) { response in
                #expect(Data(response.body.readableBytesView) == png)
                #expect(response.headers[.contentType] == "image/png")
            }
            let trip = try await client.decoded(WireTrip.self, .get, Self.trips + "/\(tripID)", as: "bob")
            #expect(trip.hasReceipt)
        }
    }
}
