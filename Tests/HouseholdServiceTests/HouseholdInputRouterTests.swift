import Foundation
import HummingbirdTesting
import TestSupport
import Testing

@testable import HouseholdService

/// Bad input to the household routes, on the service's own router: each is a 400 naming its field, and nothing is
/// stored.
@Suite struct HouseholdInputRouterTests {
    @Test(arguments: [
        (#"{"name": "", "schedule": {"kind": "once"}}"#, "invalid_name"),
        (#"{"name": "Trash", "schedule": {"kind": "weekly", "weekdays": []}}"#, "invalid_schedule.weekdays"),
        (#"{"name": "Trash", "schedule": {"kind": "everyDays", "every": 0}}"#, "invalid_schedule.every"),
        (#"{"name": "Trash", "points": 101}"#, "invalid_points"),
        (#"{"name": "Trash", "startOn": "2020-01-01"}"#, "invalid_start_on"),
        (#"{"name": "Trash", "startOn": "tomorrow"}"#, "invalid_body"),
        (
            #"{"name": "Trash", "assignment": {"kind": "fixed", "assignee": "someone-else"}}"#,
            "invalid_assignment.assignee"
        ),
        (#"{"schedule": {"kind": "once"}}"#, "invalid_name"),
    ])
    func aBadChoreIsNamedAndNothingIsStored(body: String, code: String) async throws {
        try await Self.expectRefused(body, at: "/chores", code: code)
    }

    /// The same zones as habits: the tz database's names, its `Etc/` zones and links included.
    @Test(arguments: ["Etc/GMT-2", "US/Eastern", "Europe/Kyiv"])
    func aHouseholdTakesEveryTZDatabaseZone(zone: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let body = #"{"name": "Flat", "timeZone": "ZONE"}"#.replacingOccurrences(of: "ZONE", with: zone)
            let answer = try await client.send(.post, "/v1/households", as: "dan", json: body)
            #expect(answer.status == .created, "\(String(describing: answer.problem))")
            #expect(answer.object["timeZone"] as? String == zone)
        }
    }

    @Test(arguments: [
        (#"{"name": ""}"#, "invalid_name"), (#"{"name": "Flat", "timeZone": "Mars/Olympus"}"#, "invalid_time_zone"),
        (#"{"name": 5}"#, "invalid_body"), (#"{"name": "x""#, "invalid_body"),
        (#"{"name": "Flat", "timeZone": "GMT+2"}"#, "invalid_time_zone"),
        (#"{"name": "Flat", "timeZone": "+02:00"}"#, "invalid_time_zone"),
    ])
    func aBadHouseholdIsNamed(body: String, code: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.post, "/v1/households", as: "dan", json: body)
            #expect(answer.status == .badRequest, "\(body)")
            #expect(answer.problem?.code == code, "\(body): \(String(describing: answer.problem))")
            #expect(try await client.send(.get, "/v1/households/mine", as: "dan").status == .notFound)
        }
    }

    @Test(arguments: [
        (bill(amount: 0, #"{"kind":"equal"}"#), "invalid_amount"),
        (#"{"description":"x","amount":100,"currency":"EURO","split":{"kind":"equal"}}"#, "invalid_currency"),
        (bill(#"{"kind":"halves"}"#), "invalid_split.kind"),
        (
            bill(#"{"kind":"exact","amounts":{}}"#),
            "invalid_split.among"
        ),
        (#"{"description":"","amount":100,"currency":"EUR","split":{"kind":"equal"}}"#, "invalid_description"),
        (#"{"description":"x","amount":"100","currency":"EUR","split":{"kind":"equal"}}"#, "invalid_body"),
        (
            #"{"description":"x","amount":100,"currency":"EUR","payerId":"stranger","split":{"kind":"equal"}}"#,
            "invalid_members"
        ),
        (
            bill(#"{"kind":"equal","among":["stranger"]}"#),
            "invalid_members"
        ),
        (
            bill(amount: 1000, #"{"kind":"exact","amounts":{"ann":500,"bob":400}}"#),
            "invalid_split.amounts"
        ),
        (
            bill(amount: 1000, #"{"kind":"percentages","percentages":{"ann":50,"bob":49.999}}"#),
            "invalid_split.percentages"
        ),
        // Issue 16: a percentage of 1e300 trapped converting to basis points; parts near Int.max overflowed their sum.
        (
            bill(#"{"kind":"percentages","percentages":{"ann":1e300}}"#),
            "invalid_split.percentages"
        ),
        (
            bill(#"{"kind":"percentages","percentages":{"ann":-1e300,"bob":100}}"#),
            "invalid_split.percentages"
        ),
        (
            bill(#"{"kind":"percentages","percentages":{"ann":100.5,"bob":-0.5}}"#),
            "invalid_split.percentages"
        ),
        (
            bill(#"{"kind":"exact","amounts":{"ann":9223372036854775807,"bob":2}}"#),
            "invalid_split.amounts"
        ),
        (
            bill(#"{"kind":"shares","shares":{"ann":9223372036854775807,"bob":1}}"#),
            "invalid_split.shares"
        ),
    ])
    func aBadBillIsNamedAndNothingIsStored(body: String, code: String) async throws {
        try await Self.expectRefused(body, at: "/bills", code: code)
    }

    @Test(arguments: [
        (#"{"text": ""}"#, "invalid_text"), (#"{"text": "hi", "expiresInDays": 0}"#, "invalid_expires_in_days"),
        (#"{"text": "hi", "expiresInDays": 91}"#, "invalid_expires_in_days"), (#"{"text": 3}"#, "invalid_body"),
    ])
    func aBadNoteIsNamedAndNothingIsStored(body: String, code: String) async throws {
        try await Self.expectRefused(body, at: "/notes", code: code)
    }

    /// Posts `body` to the household's `path` as ann: a 400 with `code`, and the list at `path` still empty.
    static func expectRefused(_ body: String, at path: String, code: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.post, HouseholdRouterTests.household + path, as: "ann", json: body)
            #expect(answer.status == .badRequest, "\(body)")
            #expect(answer.problem?.code == code, "\(body): \(String(describing: answer.problem))")
            let list = try await client.send(.get, HouseholdRouterTests.household + path, as: "ann")
            #expect((list.object["items"] as? [Any])?.isEmpty == true)
        }
    }

    /// A bill of `amount` (minor units) split as `split`, as JSON.
    static func bill(amount: Int = 100, _ split: String) -> String {
        #"{"description":"x","amount":\#(amount),"currency":"EUR","split":\#(split)}"#
    }
}
