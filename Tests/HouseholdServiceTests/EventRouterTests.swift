import Foundation
import HTTPTypes
import HummingbirdTesting
import PlatformKit
import TestSupport
import Testing

@testable import HouseholdService

/// The event routes on the service's router: ann and bob share household `h` (UTC), cat is an outsider. The fixture's
/// clock stands at 2027-01-15 08:00 UTC.
@Suite struct EventRouterTests {
    static let events = "/v1/households/h/events"
    static let meeting = #"{"title":"House meeting","start":"2027-01-20T19:00:00+01:00","place":"Kitchen"}"#

    @Test(arguments: StoreKind.allCases)
    func anEventShowsTheInstantAndTheHouseholdsClockAndWhoIsComing(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let created = try await client.send(.post, Self.events, as: "ann", json: Self.meeting)
            #expect(created.status == .created)
            #expect(created.object["start"] as? String == "2027-01-20T18:00:00Z")
            #expect(created.object["localStart"] as? String == "2027-01-20T18:00")
            #expect(created.object["timeZone"] as? String == "UTC")
            #expect(created.object["remindMinutesBefore"] as? Int == 60)
            #expect(created.object["status"] as? String == "scheduled")
            let id = try #require(created.object["id"] as? String)
            let answered = try await client.send(
                .put, Self.events + "/\(id)/rsvp", as: "bob", json: #"{"answer":"maybe"}"#)
            let rsvps = try #require(answered.object["rsvps"] as? [[String: Any]])
            #expect(rsvps.map { $0["userId"] as? String } == ["ann", "bob"])
            #expect(rsvps.map { $0["answer"] as? String } == ["yes", "maybe"])
            let listed = try await client.send(.get, Self.events, as: "bob")
            #expect((listed.object["items"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            let past = try await client.send(.get, Self.events + "?when=past", as: "bob")
            #expect((past.object["items"] as? [Any])?.isEmpty == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func onlyTheCreatorEditsOrCancelsAndACancelledEventStaysListed(kind: StoreKind) async throws {
        try await HouseholdRouterFixture(kind).app().test(.router) { client in
            let created = try await client.send(.post, Self.events, as: "ann", json: Self.meeting)
            let id = try #require(created.object["id"] as? String)
            let edit = try await client.send(.patch, Self.events + "/\(id)", as: "bob", json: #"{"title":"Mine"}"#)
            #expect(edit.status == .forbidden)
            #expect(edit.problem?.code == "not_event_creator")
            #expect(edit.problem?.detail == "Only the event's creator can edit it.")
            let cancel = try await client.send(.post, Self.events + "/\(id)/cancel", as: "bob")
            #expect(cancel.status == .forbidden)
            #expect(cancel.problem?.detail == "Only the event's creator can cancel it.")
            let moved = try await client.send(
                .patch, Self.events + "/\(id)", as: "ann",
                json: #"{"start":"2027-01-21T18:00:00Z","end":"2027-01-21T20:00:00Z","place":null}"#)
            #expect(moved.status == .ok)
            #expect(moved.object["localEnd"] as? String == "2027-01-21T20:00")
            #expect(moved.object["place"] == nil)
            let cancelled = try await client.send(.post, Self.events + "/\(id)/cancel", as: "ann")
            #expect(cancelled.object["status"] as? String == "cancelled")
            let again = try await client.send(.post, Self.events + "/\(id)/cancel", as: "ann")
            #expect(again.status == .conflict)
            #expect(again.problem?.code == "event_cancelled")
            let answer = try await client.send(.put, Self.events + "/\(id)/rsvp", as: "bob", json: #"{"answer":"yes"}"#)
            #expect(answer.problem?.code == "event_cancelled")
            let listed = try await client.send(.get, Self.events, as: "bob")
            #expect((listed.object["items"] as? [[String: Any]])?.first?["status"] as? String == "cancelled")
        }
    }

    @Test(
        arguments: [
            (HTTPRequest.Method.get, "", nil), (.post, "", meeting), (.get, "/e", nil),
            (.patch, "/e", #"{"title":"x"}"#), (.post, "/e/cancel", nil), (.put, "/e/rsvp", #"{"answer":"yes"}"#),
        ] as [(HTTPRequest.Method, String, String?)])
    func anOutsiderFindsNoHousehold(method: HTTPRequest.Method, path: String, body: String?) async throws {
        let fixture = try await HouseholdRouterFixture()
        try await fixture.seed { store in
            _ = try await store.createEvent(
                EventRules.Draft(
                    title: "Party", note: nil, place: nil, start: fixture.clock.now.addingTimeInterval(86_400),
                    end: nil, remindMinutesBefore: 60),
                id: "e", in: "h", by: "ann", now: fixture.clock.now)
        }
        try await fixture.app().test(.router) { client in
            let answer = try await client.send(method, Self.events + path, as: "cat", json: body)
            #expect(answer.status == .notFound)
            #expect(answer.problem?.detail == "The household was not found.")
            let member = try await client.send(method, Self.events + path, as: "bob", json: body)
            #expect(member.status.code < 400 || member.problem?.code == "not_event_creator")
        }
    }

    @Test(arguments: [
        (#"{"title":"","start":"2027-01-20T18:00:00Z"}"#, "invalid_title", "title: must not be empty."),
        (
            #"{"title":"x","start":"2027-01-20T18:00:00"}"#, "invalid_start",
            "start: must be a date-time with an offset, such as 2026-12-05T19:00:00+01:00."
        ),
        (
            #"{"title":"x","start":"2199-01-20T18:00:00Z"}"#, "invalid_start",
            "start: must be in the years 2000 to 2100."
        ),
        (
            #"{"title":"x","start":"2027-01-20T18:00:00Z","end":"2027-01-20T17:59:59Z"}"#, "invalid_end",
            "end: must not be before start."
        ),
        (
            #"{"title":"x","start":"2027-01-20T18:00:00Z","remindMinutesBefore":-1}"#, "invalid_remind_minutes_before",
            "remindMinutesBefore: must be from 0 to 10080."
        ),
        (
            #"{"title":"\#(String(repeating: "t", count: 101))","start":"2027-01-20T18:00:00Z"}"#, "invalid_title",
            "title: must be at most 100 characters."
        ),
        (
            #"{"title":"x","start":"2027-01-20T18:00:00Z","place":"\#(String(repeating: "p", count: 201))"}"#,
            "invalid_place", "place: must be at most 200 characters."
        ),
        (
            #"{"title":"x","start":"2027-01-20T18:00:00Z","note":"\#(String(repeating: "n", count: 1_001))"}"#,
            "invalid_note", "note: must be at most 1000 characters."
        ),
    ])
    func aBadFieldIsNamed(body: String, code: String, detail: String) async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.post, Self.events, as: "ann", json: body)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == code)
            #expect(answer.problem?.detail == detail)
        }
    }

    @Test func aBadAnswerListOrEditIsNamed() async throws {
        try await HouseholdRouterFixture().app().test(.router) { client in
            let created = try await client.send(.post, Self.events, as: "ann", json: Self.meeting)
            let id = try #require(created.object["id"] as? String)
            let answer = try await client.send(
                .put, Self.events + "/\(id)/rsvp", as: "bob", json: #"{"answer":"sure"}"#)
            #expect(answer.problem?.code == "invalid_answer")
            let when = try await client.send(.get, Self.events + "?when=tomorrow", as: "bob")
            #expect(when.problem?.code == "invalid_when")
            let cursor = try await client.send(.get, Self.events + "?cursor=WyJ4Il0", as: "bob")
            #expect(cursor.problem?.code == "invalid_cursor")
            let end = try await client.send(
                .patch, Self.events + "/\(id)", as: "ann", json: #"{"end":"2027-01-01T00:00:00Z"}"#)
            #expect(end.problem?.code == "invalid_end")
        }
    }
}
