import Foundation
import PlatformKit
import TestSupport
import Testing

@Suite struct HabitsCRUDTests {
    @Test func createViewEditAndDeleteAHabit() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            // given no habits: a friendly message instead of a list
            let empty = try await world.api.get(HabitsPaths.habits, token: world.token(world.ann))
            #expect(empty.status == 200)
            #expect(world.items(empty).isEmpty)
            #expect((empty.object["message"] as? String)?.contains("first habit") == true)
            // when ann creates one without a start date
            let created = try await world.api.post(
                HabitsPaths.habits, token: world.token(world.ann),
                json: HabitBody(title: "Run", reason: "Stay fit", weekdays: ["mon", "wed", "fri"]))
            #expect(created.status == 201)
            let id = try #require(created.object["id"] as? String)
            // then it starts today in her time zone, with no events yet
            #expect(created.object["startDate"] as? String == "2027-01-04")
            #expect(created.object["status"] as? String == "no_events_yet")
            #expect(created.object["weekdays"] as? [String] == ["mon", "wed", "fri"])
            let list = try await world.api.get(HabitsPaths.habits, token: world.token(world.ann))
            #expect(world.titles(list) == ["Run"])
            #expect(list.object["message"] == nil)
            let shown = try await world.api.get("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann))
            #expect(shown.object["reason"] as? String == "Stay fit")
            // when she edits the title and schedule only
            let edited = try await world.api.patch(
                "\(HabitsPaths.habits)/\(id)", token: world.token(world.ann),
                json: HabitBody(title: "Jog", weekdays: ["sat"]))
            #expect(edited.status == 200)
            #expect(edited.object["title"] as? String == "Jog")
            #expect(edited.object["reason"] as? String == "Stay fit")
            #expect(edited.object["weekdays"] as? [String] == ["sat"])
            // when she deletes it, it is gone
            #expect(
                try await world.api.delete("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann)).status == 204)
            #expect(try await world.api.get("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann)).status == 404)
            #expect(world.items(try await world.api.get(HabitsPaths.habits, token: world.token(world.ann))).isEmpty)
        }
    }

    @Test func nobodyElseSeesChangesOrDeletesMyHabit() async throws {
        try await HabitsWorld.run { world in
            let id = try await world.habit(world.ann, "Read")
            let path = "\(HabitsPaths.habits)/\(id)"
            #expect(try await world.api.get(path, token: world.token(world.bob)).status == 404)
            #expect(
                try await world.api.patch(path, token: world.token(world.bob), json: HabitBody(title: "X")).status
                    == 404)
            #expect(try await world.api.delete(path, token: world.token(world.bob)).status == 404)
            #expect(world.items(try await world.api.get(HabitsPaths.habits, token: world.token(world.bob))).isEmpty)
            #expect(try await world.api.get(HabitsPaths.habits).status == 401)
            // ann's habit is untouched
            #expect(try await world.api.get(path, token: world.token(world.ann)).object["title"] as? String == "Read")
        }
    }

    @Test func validationLimitsAtAndPastTheirBounds() async throws {
        try await HabitsWorld.run { world in
            let token = world.token(world.ann)
            func create(_ body: HabitBody) async throws -> APIResponse {
                try await world.api.post(HabitsPaths.habits, token: token, json: body)
            }
            let days = ["mon"]
            #expect(try await create(HabitBody(title: String(repeating: "t", count: 20), weekdays: days)).status == 201)
            let long = try await create(HabitBody(title: String(repeating: "t", count: 21), weekdays: days))
            #expect(long.status == 400)
            #expect(long.problem?.code == "invalid_title")
            // exception 1: an empty title or schedule does nothing
            #expect(try await create(HabitBody(title: "", weekdays: days)).problem?.code == "invalid_title")
            #expect(try await create(HabitBody(title: "   ", weekdays: days)).problem?.code == "invalid_title")
            #expect(try await create(HabitBody(weekdays: days)).problem?.code == "invalid_title")
            #expect(try await create(HabitBody(title: "A", weekdays: [])).problem?.code == "invalid_weekdays")
            #expect(try await create(HabitBody(title: "A")).problem?.code == "invalid_weekdays")
            #expect(try await create(HabitBody(title: "A", weekdays: ["funday"])).problem?.code == "invalid_weekdays")
            let reason30 = try await create(
                HabitBody(title: "B", reason: String(repeating: "r", count: 30), weekdays: days))
            #expect(reason30.status == 201)
            #expect(
                try await create(HabitBody(title: "C", reason: String(repeating: "r", count: 31), weekdays: days))
                    .problem?.code == "invalid_reason")
            #expect(
                try await create(HabitBody(title: "D", weekdays: days, startDate: "2027-02-30")).problem?.code
                    == "invalid_start_date")
            #expect(
                try await world.api.post(HabitsPaths.habits, token: token, raw: "{").problem?.code == "invalid_body")
            // nothing invalid was stored
            #expect(world.items(try await world.api.get(HabitsPaths.habits, token: token)).count == 2)
            // edits are checked the same way and leave the habit unchanged when refused
            let id = try #require(reason30.object["id"] as? String)
            let refused = try await world.api.patch(
                "\(HabitsPaths.habits)/\(id)", token: token, json: HabitBody(title: String(repeating: "x", count: 21)))
            #expect(refused.status == 400)
            #expect(
                try await world.api.get("\(HabitsPaths.habits)/\(id)", token: token).object["title"] as? String == "B")
            #expect(
                try await world.api.patch("\(HabitsPaths.habits)/\(id)", token: token, json: HabitBody(weekdays: []))
                    .problem?.code == "invalid_weekdays")
            // time zones must be IANA names
            let zone = try await world.api.send(
                .PUT, HabitsPaths.preferences, token: token, json: ["timeZone": "Mars/Olympus"])
            #expect(zone.problem?.code == "invalid_time_zone")
        }
    }
}

@Suite struct HabitsTodayTests {
    @Test func todayListsDueHabitsWithoutAnEventYet() async throws {
        // 2027-01-04 is a Monday
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let monday = try await world.habit(world.ann, "Gym", weekdays: ["mon", "thu"], startDate: "2027-01-01")
            try await world.habit(world.ann, "Swim", weekdays: ["tue"], startDate: "2027-01-01")
            try await world.habit(world.ann, "Later", weekdays: HabitBody.everyDay, startDate: "2027-01-05")
            let daily = try await world.habit(world.ann, "Floss")
            let today = try await world.api.get(HabitsPaths.today, token: world.token(world.ann))
            #expect(world.titles(today) == ["Gym", "Floss"])
            // once done today, a habit leaves the list
            try await world.recorded(world.ann, monday)
            #expect(
                world.titles(try await world.api.get(HabitsPaths.today, token: world.token(world.ann))) == ["Floss"])
            try await world.recorded(world.ann, daily)
            let done = try await world.api.get(HabitsPaths.today, token: world.token(world.ann))
            #expect(world.titles(done).isEmpty)
            #expect(done.object["message"] as? String != nil)
            // bob sees none of it
            #expect(world.titles(try await world.api.get(HabitsPaths.today, token: world.token(world.bob))).isEmpty)
        }
    }

    @Test func statusIsNoEventsYetThenOnTrackThenBehind() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let id = try await world.habit(world.ann, "Walk", startDate: "2027-01-01")
            func status() async throws -> String? {
                try await world.api.get("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann)).object["status"]
                    as? String
            }
            #expect(try await status() == "no_events_yet")
            for day in ["2027-01-01", "2027-01-02", "2027-01-03"] {
                try await world.recorded(world.ann, id, EventBody(date: day))
            }
            #expect(try await status() == "on_track")
            // a week later with nothing done: behind
            try await world.move(to: "2027-01-11T12:00:00Z")
            #expect(try await status() == "behind")
        }
    }
}
