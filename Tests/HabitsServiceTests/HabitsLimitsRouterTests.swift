import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HabitsService

/// A habit's and an event's limits at and past their bounds, and who may reach them, on the service's own router
/// (`HabitsRouterFixture`: 2027-01-15, a Friday; ann follows bob, cat follows nobody).
@Suite struct HabitsLimitsRouterTests {
    static func habit(
        _ title: String? = nil, reason: String? = nil, weekdays: [String]? = nil, startDate: String? = nil
    ) throws -> String {
        var body: [String: Any] = [:]
        body["title"] = title
        body["reason"] = reason
        body["weekdays"] = weekdays
        body["startDate"] = startDate
        return String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
    }

    @Test func aHabitsFieldsAreCheckedAtAndPastTheirBoundsAndNothingInvalidIsStored() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            func create(_ body: String) async throws -> (status: HTTPResponse.Status, code: String?, id: String?) {
                let answer = try await client.send(.post, HabitsPaths.habits, as: "ann", json: body)
                return (answer.status, answer.problem?.code, answer.object["id"] as? String)
            }
            let days = ["mon"]
            #expect(try await create(Self.habit(String(repeating: "t", count: 20), weekdays: days)).status == .created)
            let long = try await create(Self.habit(String(repeating: "t", count: 21), weekdays: days))
            #expect(long.status == .badRequest)
            #expect(long.code == "invalid_title")
            // an empty title or schedule does nothing
            for (body, code) in [
                (try Self.habit("", weekdays: days), "invalid_title"),
                (try Self.habit("   ", weekdays: days), "invalid_title"),
                (try Self.habit(weekdays: days), "invalid_title"),
                (try Self.habit("A", weekdays: []), "invalid_weekdays"),
                (try Self.habit("A"), "invalid_weekdays"),
                (try Self.habit("A", weekdays: ["funday"]), "invalid_weekdays"),
                (try Self.habit("C", reason: String(repeating: "r", count: 31), weekdays: days), "invalid_reason"),
                (try Self.habit("D", weekdays: days, startDate: "2027-02-30"), "invalid_start_date"),
                ("{", "invalid_body"),
            ] {
                let refused = try await create(body)
                #expect(refused.status == .badRequest, "\(body)")
                #expect(refused.code == code, "\(body)")
            }
            let reason30 = try await create(Self.habit("B", reason: String(repeating: "r", count: 30), weekdays: days))
            #expect(reason30.status == .created)
            // nothing invalid was stored
            let listed = try await client.send(.get, HabitsPaths.habits, as: "ann")
            #expect((listed.object["items"] as? [Any])?.count == 2)
            // edits are checked the same way and leave the habit unchanged when refused
            let path = HabitsPaths.habits + "/\(try #require(reason30.id))"
            let refused = try await client.send(
                .patch, path, as: "ann", json: try Self.habit(String(repeating: "x", count: 21)))
            #expect(refused.status == .badRequest)
            #expect(refused.problem?.code == "invalid_title")
            #expect(try await client.send(.get, path, as: "ann").object["title"] as? String == "B")
            let noDays = try await client.send(.patch, path, as: "ann", json: try Self.habit(weekdays: []))
            #expect(noDays.problem?.code == "invalid_weekdays")
        }
    }

    /// Exactly the tz database's names: its Etc zones and links too, and no bare offsets.
    @Test func aTimeZoneIsATZDatabaseName() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            for accepted in ["Etc/GMT-2", "US/Eastern", "UTC", "Asia/Kolkata"] {
                let answer = try await client.send(
                    .put, HabitsPaths.preferences, as: "ann", json: #"{"timeZone":"\#(accepted)"}"#)
                #expect(answer.status == .ok, "\(accepted): \(String(describing: answer.problem))")
            }
            for refused in ["Mars/Olympus", "GMT+2", "+02:00", "europe/paris", "", String(repeating: "A/", count: 100)]
            {
                let answer = try await client.send(
                    .put, HabitsPaths.preferences, as: "ann", json: #"{"timeZone":"\#(refused)"}"#)
                #expect(answer.status == .badRequest, "\(refused)")
                #expect(answer.problem?.code == "invalid_time_zone", "\(refused)")
            }
        }
    }

    @Test func nobodyElseSeesChangesOrDeletesMyHabit() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let path = HabitsPaths.habits + "/\(try await client.habit(of: "ann"))"
            #expect(try await client.send(.get, path, as: "cat").status == .notFound)
            #expect(try await client.send(.patch, path, as: "cat", json: #"{"title":"X"}"#).status == .notFound)
            #expect(try await client.send(.delete, path, as: "cat").status == .notFound)
            let theirs = try await client.send(.get, HabitsPaths.habits, as: "cat")
            #expect((theirs.object["items"] as? [Any])?.isEmpty == true)
            try await client.execute(uri: HabitsPaths.habits, method: .get) { #expect($0.status == .unauthorized) }
            #expect(try await client.send(.get, path, as: "ann").object["title"] as? String == "Run")
        }
    }

    @Test func eventsOnlyForDueDaysFromTheStartUntilToday() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            // Mondays and Wednesdays from Monday 2027-01-11
            let created = try await client.send(
                .post, HabitsPaths.habits, as: "ann",
                json: try Self.habit("Gym", weekdays: ["mon", "wed"], startDate: "2027-01-11"))
            let events = HabitsPaths.habits + "/\(try #require(created.object["id"] as? String))/events"
            func record(_ date: String, as user: String = "ann") async throws -> (HTTPResponse.Status, String?) {
                let answer = try await client.send(.post, events, as: user, json: #"{"date":"\#(date)"}"#)
                return (answer.status, answer.problem?.code)
            }
            #expect(try await record("2027-01-12") == (.badRequest, "event_not_due"))
            #expect(try await record("2027-01-10") == (.badRequest, "event_before_start"))
            #expect(try await record("2027-01-18") == (.badRequest, "event_in_future"))
            #expect(try await record("2027-1-11") == (.badRequest, "invalid_date"))
            #expect(try await record("2027-01-11").0 == .created)
            #expect(try await record("2027-01-13").0 == .created)
            // someone else's habit reads as unknown
            #expect(try await record("2027-01-11", as: "bob").0 == .notFound)
        }
    }

    @Test func anEventsCommentPhotoAndLocationAreCheckedAtAndPastTheirBounds() async throws {
        try await HabitsRouterFixture().app().test(.router) { client in
            let events = HabitsPaths.habits + "/\(try await client.habit(of: "ann"))/events"
            var day = 0
            func post(_ fields: [String: Any]) async throws -> (status: HTTPResponse.Status, code: String?) {
                day += 1
                var body = fields
                body["date"] = String(format: "2027-01-%02d", day)
                let json = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
                let answer = try await client.send(.post, events, as: "ann", json: json)
                return (answer.status, answer.problem?.code)
            }
            #expect(try await post(["comment": String(repeating: "c", count: 20)]).status == .created)
            let long = try await post(["comment": String(repeating: "c", count: 21)])
            #expect(long.status == .badRequest)
            #expect(long.code == "invalid_comment")
            #expect(try await post(["comment": ""]).status == .created)
            for image in [TestImages.png(size: 65_535), TestImages.jpeg(size: 65_535), TestImages.webp(size: 65_534)] {
                #expect(try await post(["photo": image.base64EncodedString()]).status == .created)
            }
            // too large is refused with a clear error and nothing is saved
            let large = try await post(["comment": "big", "photo": TestImages.png(size: 65_536).base64EncodedString()])
            #expect(large.status == .contentTooLarge)
            #expect(large.code == "photo_too_large")
            let text = try await post(["photo": Data("not an image".utf8).base64EncodedString()])
            #expect(text.status == .unsupportedMediaType)
            #expect(text.code == "unsupported_media_type")
            #expect(try await post(["photo": "%%%"]).code == "invalid_photo")
            // a location that is not a real position is refused
            #expect(try await post(["location": ["latitude": 90, "longitude": 180]]).status == .created)
            #expect(try await post(["location": ["latitude": 90.0001, "longitude": 0]]).code == "invalid_latitude")
            #expect(try await post(["location": ["latitude": 0, "longitude": -180.0001]]).code == "invalid_longitude")
            let history = try await client.send(.get, HabitsPaths.history + "?limit=100", as: "ann")
            let items = history.object["items"] as? [[String: Any]] ?? []
            #expect(items.count == 6)
            #expect(!items.contains { $0["comment"] as? String == "big" })
        }
    }
}
