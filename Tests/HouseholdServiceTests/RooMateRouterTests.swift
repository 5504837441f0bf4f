import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HouseholdService

/// RooMate's bill categories, exports, reminders and recurring bills on the service's own router: ann and bob share
/// household `h`, cat is an outsider.
@Suite struct RooMateRouterTests {
    static let household = "/v1/households/h"

    static func bill(_ description: String, _ amount: Int, category: String? = nil) -> String {
        let category = category.map { #","category":"\#($0)""# } ?? ""
        return
            #"{"description":"\#(description)","amount":\#(amount),"currency":"EUR","split":{"kind":"equal"}\#(category)}"#
    }

    static func items(_ object: [String: Any]) -> [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }

    @Test(arguments: StoreKind.allCases)
    func billsHaveACategoryToFilterAndTotalBy(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let rent = try await client.send(
                .post, Self.household + "/bills", as: "ann", json: Self.bill("Rent", 80_000, category: "rent"))
            #expect(rent.status == .created)
            #expect(rent.object["category"] as? String == "rent")
            _ = try await client.send(
                .post, Self.household + "/bills", as: "bob", json: Self.bill("Milk", 300, category: "groceries"))
            let plain = try await client.send(.post, Self.household + "/bills", as: "bob", json: Self.bill("Tape", 200))
            #expect(plain.object["category"] as? String == "other")
            let id = try #require(plain.object["id"] as? String)
            let moved = try await client.send(
                .put, Self.household + "/bills/\(id)", as: "ann",
                json: Self.bill("Tape", 200, category: "household_supplies"))
            #expect(moved.object["category"] as? String == "household_supplies")

            let groceries = try await client.send(.get, Self.household + "/bills?category=groceries", as: "bob")
            #expect(Self.items(groceries.object).map { $0["description"] as? String } == ["Milk"])
            let everything = try await client.send(.get, Self.household + "/bills", as: "bob")
            #expect(Self.items(everything.object).count == 3)

            let expenses = try await client.send(.get, Self.household + "/statistics/expenses", as: "ann")
            let categories = expenses.object["categories"] as? [[String: Any]] ?? []
            #expect(categories.map { $0["category"] as? String } == ["rent", "groceries", "household_supplies"])
            #expect(categories.map { $0["total"] as? Int } == [80_000, 300, 200])
            let months = expenses.object["months"] as? [[String: Any]] ?? []
            #expect((months.last?["categories"] as? [[String: Any]])?.count == 3)
        }
    }

    @Test func aCategoryOutsideTheListIsRefusedByName() async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let created = try await client.send(
                .post, Self.household + "/bills", as: "ann", json: Self.bill("Rent", 100, category: "Rent"))
            #expect(created.status == .badRequest)
            #expect(created.problem?.code == "invalid_category")
            #expect(created.problem?.detail?.hasPrefix("category: must be one of groceries, rent,") == true)
            let listed = try await client.send(.get, Self.household + "/bills?category=%3Dcmd", as: "ann")
            #expect(listed.status == .badRequest)
            #expect(listed.problem?.code == "invalid_category")
        }
    }

    @Test(arguments: ["/bills?category=rent", "/statistics/expenses"])
    func anOutsiderSeesNoCategories(path: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.get, Self.household + path, as: "cat")
            #expect(answer.status == .notFound)
            #expect(answer.problem?.detail == "The household was not found.")
        }
    }

    func exported(_ client: some TestClientProtocol, as user: String) async throws
        -> (status: HTTPResponse.Status, type: String?, text: String)
    {
        try await client.execute(
            uri: Self.household + "/export.csv", method: .get, headers: [.authorization: "Bearer \(user)"]
        ) { ($0.status, $0.headers[.contentType], String(buffer: $0.body)) }
    }

    @Test(arguments: StoreKind.allCases)
    func membersExportBillsAndPaymentsAsCSV(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            _ = try await client.send(
                .post, Self.household + "/bills", as: "ann", json: Self.bill("=HYPERLINK(\\\"x\\\"), rent", 1_001))
            _ = try await client.send(
                .post, Self.household + "/payments", as: "bob", json: #"{"to":"ann","amount":500,"currency":"EUR"}"#)
            let file = try await exported(client, as: "bob")
            #expect(file.status == .ok)
            #expect(file.type?.hasPrefix("text/csv") == true)
            let lines = file.text.components(separatedBy: "\r\n")
            #expect(lines[0] == "date,type,description,category,amount,currency,paid_by,paid_to,created_at,id,ann,bob")
            #expect(lines[1].contains(#",bill,"'=HYPERLINK(""x""), rent",other,10.01,EUR,ann,,"#))
            #expect(lines[1].hasSuffix(",5.01,5.00") || lines[1].hasSuffix(",5.00,5.01"))
            #expect(lines[2].contains(",payment,Payment,,5.00,EUR,bob,ann,"))
            #expect(lines.count == 4 && lines[3].isEmpty)
        }
    }

    @Test func anOutsiderCannotExport() async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let file = try await exported(client, as: "cat")
            #expect(file.status == .notFound)
            #expect(!file.text.contains("date,type"))
        }
    }

    static func recurring(_ schedule: String, category: String = "rent") -> String {
        #"{"description":"Rent","amount":80000,"currency":"EUR","split":{"kind":"equal"},"category":"\#(category)","schedule":\#(schedule)}"#
    }

    @Test(arguments: StoreKind.allCases)
    func onlyItsCreatorOrTheAdminChangesOrStopsARecurringBill(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let path = Self.household + "/recurring-bills"
            let created = try await client.send(
                .post, path, as: "bob", json: Self.recurring(#"{"kind":"monthly","lastDay":true}"#))
            #expect(created.status == .created)
            #expect((created.object["schedule"] as? [String: Any])?["lastDay"] as? Bool == true)
            let id = try #require(created.object["id"] as? String)
            let mine = try await client.send(
                .post, path, as: "ann", json: Self.recurring(#"{"kind":"weekly","weekday":1}"#))
            let annsID = try #require(mine.object["id"] as? String)
            #expect(Self.items(try await client.send(.get, path, as: "bob").object).count == 2)

            let edited = try await client.send(
                .put, path + "/\(annsID)", as: "bob", json: Self.recurring(#"{"kind":"everyDays","every":14}"#))
            #expect(edited.status == .forbidden)
            #expect(edited.problem?.code == "not_recurring_bill_owner")
            #expect(
                edited.problem?.detail == "Only the recurring bill's creator or the household's admin can change it.")
            let stopped = try await client.send(.delete, path + "/\(annsID)", as: "bob")
            #expect(stopped.problem?.code == "not_recurring_bill_owner")

            let own = try await client.send(
                .put, path + "/\(id)", as: "bob",
                json: Self.recurring(#"{"kind":"everyDays","every":14}"#, category: "utilities"))
            #expect(own.object["category"] as? String == "utilities")
            #expect((own.object["schedule"] as? [String: Any])?["every"] as? Int == 14)
            // ann created the household: its admin stops bob's
            let byAdmin = try await client.send(.delete, path + "/\(id)", as: "ann")
            #expect(byAdmin.status == .ok)
            #expect(byAdmin.object["stopped"] as? Bool == true)
            #expect(byAdmin.object["nextOn"] == nil)
        }
    }

    @Test(arguments: [
        (#"{"kind":"monthly","dayOfMonth":29}"#, "invalid_schedule.day_of_month"),
        (#"{"kind":"monthly","dayOfMonth":3,"lastDay":true}"#, "invalid_schedule.day_of_month"),
        (#"{"kind":"weekly","weekday":8}"#, "invalid_schedule.weekday"),
        (#"{"kind":"everyDays","every":0}"#, "invalid_schedule.every"),
        (#"{"kind":"yearly"}"#, "invalid_schedule.kind"),
        (#"{"kind":"everyDays","every":7,"startOn":"2000-01-01"}"#, "invalid_schedule.start_on"),
        (#"{"kind":"everyDays","every":7,"startOn":"tomorrow"}"#, "invalid_schedule.start_on"),
    ])
    func aBadScheduleIsNamed(schedule: String, code: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(
                .post, Self.household + "/recurring-bills", as: "ann", json: Self.recurring(schedule))
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == code)
        }
    }

    @Test(
        arguments: [
            (HTTPRequest.Method.get, "/recurring-bills", nil), (.get, "/recurring-bills/x", nil),
            (.post, "/recurring-bills", recurring(#"{"kind":"weekly","weekday":1}"#)),
            (.put, "/recurring-bills/x", recurring(#"{"kind":"weekly","weekday":1}"#)),
            (.delete, "/recurring-bills/x", nil),
        ] as [(HTTPRequest.Method, String, String?)])
    func anOutsiderFindsNoRecurringBills(method: HTTPRequest.Method, path: String, body: String?) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(method, Self.household + path, as: "cat", json: body)
            #expect(answer.status == .notFound)
            #expect(answer.problem?.detail == "The household was not found.")
        }
    }
}
