import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HabitsService

/// Measurable habits, reminders, skips, pauses, archive, order and export on the router (2027-01-15 08:00 UTC):
/// each bad field named, and another user refused.
@Suite struct HabitsFeatureRouterTests {
    static let measurable =
        #"{"title":"Water","weekdays":["mon","tue","wed","thu","fri","sat","sun"],"startDate":"2027-01-01","#
        + #""target":2,"unit":"l","reminder":{"time":"20:00"}}"#

    @Test(arguments: [
        (#"{"title":"W","weekdays":["mon"],"target":0}"#, "invalid_target", "target: must be at least 0.001."),
        (
            #"{"title":"W","weekdays":["mon"],"target":-2}"#, "invalid_target",
            "target: must be a number from 0 to 1000000."
        ),
        (
            #"{"title":"W","weekdays":["mon"],"unit":"l"}"#, "invalid_unit",
            "unit: only a measurable habit (one with a target) has a unit."
        ),
        (
            #"{"title":"W","weekdays":["mon"],"target":1,"unit":"very long unit name"}"#, "invalid_unit",
            "unit: must be at most 12 characters."
        ),
        (
            #"{"title":"W","weekdays":["mon"],"reminder":{"time":"25:00"}}"#, "invalid_reminder",
            "reminder: time must be a time of day as HH:MM (00:00 to 23:59)."
        ),
        (#"{"title":"W","weekdays":["mon"],"reminder":{}}"#, "invalid_reminder", "reminder: time is required."),
    ])
    func aBadMeasureOrReminderIsNamed(body: String, code: String, detail: String) async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let answer = try await client.send(.post, HabitsPaths.habits, as: "ann", json: body)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.detail == detail)
            #expect(answer.problem?.errors?.first?.field == detail.components(separatedBy: ":")[0])
            #expect(answer.problem?.code == code)
        }
    }

    @Test func aMeasurableHabitTakesValuesAndShowsItsReminder() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let created = try await client.send(.post, HabitsPaths.habits, as: "ann", json: Self.measurable)
            #expect(created.status == .created)
            #expect(created.object["target"] as? Double == 2)
            #expect((created.object["reminder"] as? [String: Any])?["time"] as? String == "20:00")
            let id = try #require(created.object["id"] as? String)
            let events = HabitsPaths.habits + "/\(id)/events"
            let missing = try await client.send(.post, events, as: "ann", json: #"{"date":"2027-01-10"}"#)
            #expect(missing.problem?.code == "invalid_value")
            let logged = try await client.send(.post, events, as: "ann", json: #"{"value":1.5}"#)
            #expect(logged.object["value"] as? Double == 1.5)
            let today = try await client.send(.get, HabitsPaths.today, as: "ann")
            let item = try #require((today.object["items"] as? [[String: Any]])?.first)
            #expect(item["doneToday"] as? Bool == false)
            #expect(item["todayValue"] as? Double == 1.5)
            let eventID = try #require(logged.object["id"] as? String)
            _ = try await client.send(.patch, HabitsPaths.events + "/\(eventID)", as: "ann", json: #"{"value":2}"#)
            let done = try await client.send(.get, HabitsPaths.today, as: "ann")
            #expect((done.object["items"] as? [[String: Any]])?.first?["doneToday"] as? Bool == true)
            // the reminder goes with null; a yes/no habit never becomes measurable
            let cleared = try await client.send(
                .patch, HabitsPaths.habits + "/\(id)", as: "ann", json: #"{"reminder":null}"#)
            #expect(cleared.object["reminder"] == nil)
            let plain = try await client.habit(of: "ann")
            let turned = try await client.send(
                .patch, HabitsPaths.habits + "/\(plain)", as: "ann", json: #"{"target":3}"#)
            #expect(turned.problem?.code == "invalid_target")
            let valued = try await client.send(
                .post, HabitsPaths.habits + "/\(plain)/events", as: "ann", json: #"{"value":3}"#)
            #expect(valued.problem?.code == "invalid_value")
        }
    }

    @Test func skipsPausesOrderAndExportAreRefusedToAnotherUser() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "bob")
            let base = HabitsPaths.habits + "/\(habit)"
            let pause = try await client.send(
                .post, base + "/pauses", as: "bob", json: #"{"from":"2027-01-05","to":"2027-01-07"}"#)
            let pauseID = try #require(pause.object["id"] as? String)
            // ann follows bob, and still may not touch or read any of it
            for user in ["ann", "cat"] {
                #expect(try await client.send(.put, base + "/skips/2027-01-03", as: user).status == .notFound)
                #expect(try await client.send(.get, base + "/skips", as: user).status == .notFound)
                #expect(try await client.send(.get, base + "/pauses", as: user).status == .notFound)
                #expect(
                    try await client.send(
                        .post, base + "/pauses", as: user, json: #"{"from":"2027-01-05","to":"2027-01-06"}"#
                    ).status == .notFound)
                #expect(try await client.send(.delete, base + "/pauses/\(pauseID)", as: user).status == .notFound)
                #expect(try await client.send(.get, base + "/events.csv", as: user).status == .notFound)
                let order = try await client.send(
                    .put, HabitsPaths.habits + "/order", as: user, json: #"{"ids":["\#(habit)"]}"#)
                #expect(order.status == .notFound)
                let remind = try await client.send(.patch, base, as: user, json: #"{"reminder":{"time":"07:00"}}"#)
                #expect(remind.status == .notFound)
                #expect(try await client.send(.patch, base, as: user, json: #"{"archived":true}"#).status == .notFound)
            }
            #expect(try await client.send(.get, base + "/pauses", as: "bob").object["items"] as? [Any] != nil)
        }
    }

    @Test(arguments: [
        ("/pauses", #"{"from":"2027-01-07","to":"2027-01-05"}"#, "to: must not be before from."),
        ("/pauses", #"{"from":"2027-01-01","to":"2028-01-02"}"#, "to: a pause may cover at most 366 days."),
        ("/pauses", #"{"to":"2027-01-05"}"#, "from: is required."),
        ("/pauses", #"{"from":"2027-1-1","to":"2027-01-05"}"#, "from: must be a day as YYYY-MM-DD."),
    ])
    func aBadPauseIsNamed(path: String, body: String, detail: String) async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let habit = try await client.habit(of: "ann")
            let answer = try await client.send(.post, HabitsPaths.habits + "/\(habit)" + path, as: "ann", json: body)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.detail == detail)
        }
    }

    @Test func aSkipNeedsADayAndTheOrderNamesEachHabitOnce() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let first = try await client.habit(of: "ann")
            let second = try await client.habit(of: "ann")
            let bad = try await client.send(.put, HabitsPaths.habits + "/\(first)/skips/tomorrow", as: "ann")
            #expect(bad.problem?.code == "invalid_date")
            #expect(
                try await client.send(.put, HabitsPaths.habits + "/\(first)/skips/2027-01-14", as: "ann").status
                    == .noContent)
            let twice = try await client.send(
                .put, HabitsPaths.habits + "/order", as: "ann", json: #"{"ids":["\#(first)","\#(first)"]}"#)
            #expect(twice.problem?.code == "invalid_ids")
            let ordered = try await client.send(
                .put, HabitsPaths.habits + "/order", as: "ann", json: #"{"ids":["\#(second)"]}"#)
            #expect(ordered.status == .noContent)
            let list = try await client.send(.get, HabitsPaths.habits, as: "ann")
            #expect((list.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [second, first])
            // archived: off the list unless asked for
            _ = try await client.send(.patch, HabitsPaths.habits + "/\(second)", as: "ann", json: #"{"archived":true}"#)
            let active = try await client.send(.get, HabitsPaths.habits, as: "ann")
            #expect((active.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [first])
            let archived = try await client.send(.get, HabitsPaths.habits + "?archived=true", as: "ann")
            #expect((archived.object["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [second])
            let wrong = try await client.send(.get, HabitsPaths.habits + "?archived=maybe", as: "ann")
            #expect(wrong.problem?.code == "invalid_archived")
        }
    }

    @Test func theExportIsCSVWithFormulasDisarmed() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let created = try await client.send(.post, HabitsPaths.habits, as: "ann", json: Self.measurable)
            let id = try #require(created.object["id"] as? String)
            _ = try await client.send(
                .post, HabitsPaths.habits + "/\(id)/events", as: "ann",
                json: #"{"date":"2027-01-10","value":2.5,"comment":"=1+1, \"ok\""}"#)
            let csv = try await client.execute(
                uri: HabitsPaths.habits + "/events.csv", method: .get, headers: [.authorization: "Bearer ann"])
            #expect(csv.status == .ok)
            #expect(csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let text = String(buffer: csv.body)
            #expect(
                text
                    == "date,habit_id,habit,value,unit,comment,latitude,longitude,created_at\r\n"
                    + "2027-01-10,\(id),Water,2.5,l,\"'=1+1, \"\"ok\"\"\",,,2027-01-15T08:00:00Z\r\n")
        }
    }
}
