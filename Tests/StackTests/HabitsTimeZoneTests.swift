import Foundation
import PlatformKit
import TestSupport
import Testing

/// "Today" is the user's day in their own IANA time zone, including on daylight-saving days.
@Suite struct HabitsTimeZoneTests {
    func todayTitles(_ world: HabitsWorld, _ user: TestUser) async throws -> [String] {
        try await world.toDo(user)
    }

    @Test func justAfterMidnightInAuckland() async throws {
        // 2027-01-15T11:05Z is Saturday 00:05 in Auckland (NZDT, UTC+13) but still Friday in UTC
        try await HabitsWorld.run(at: "2027-01-15T11:05:00Z") { world in
            try await world.setTimeZone(world.ann, "Pacific/Auckland")
            let habit = try await world.habit(world.ann, "Saturday run", weekdays: ["sat"], startDate: "2027-01-01")
            try await world.habit(world.bob, "Saturday run", weekdays: ["sat"], startDate: "2027-01-01")
            #expect(try await todayTitles(world, world.ann) == ["Saturday run"])
            #expect(try await todayTitles(world, world.bob) == [])
            let event = try await world.event(world.ann, habit)
            #expect(event.status == 201)
            #expect(try event.decode(WireHabitEvent.self).date == "2027-01-16")
            #expect(try await todayTitles(world, world.ann) == [])
            // a habit created now starts on her day, not UTC's
            let created = try await world.api.post(
                HabitsPaths.habits, token: world.token(world.ann), json: HabitBody(title: "New", weekdays: ["mon"]))
            #expect(try created.decode(WireHabit.self).startDate == "2027-01-16")
        }
    }

    @Test func justBeforeAndAfterMidnightInHonolulu() async throws {
        // 2027-01-16T09:55Z is Friday 23:55 in Honolulu (HST, UTC-10); ten minutes later it is Saturday
        try await HabitsWorld.run(at: "2027-01-16T09:55:00Z") { world in
            try await world.setTimeZone(world.ann, "Pacific/Honolulu")
            let habit = try await world.habit(world.ann, "Saturday swim", weekdays: ["sat"], startDate: "2027-01-01")
            #expect(try await todayTitles(world, world.ann) == [])
            let early = try await world.event(world.ann, habit, EventBody(date: "2027-01-16"))
            #expect(early.problem?.code == "event_in_future")
            #expect(try await world.event(world.ann, habit).problem?.code == "event_not_due")
            try await world.move(to: "2027-01-16T10:05:00Z")
            #expect(try await todayTitles(world, world.ann) == ["Saturday swim"])
            let event = try await world.event(world.ann, habit)
            #expect(try event.decode(WireHabitEvent.self).date == "2027-01-16")
            // in UTC (bob) it is already Saturday 10:05, in Auckland Saturday 23:05: same day for all three
            try await world.setTimeZone(world.cat, "Pacific/Auckland")
            try await world.habit(world.cat, "Saturday swim", weekdays: ["sat"], startDate: "2027-01-01")
            #expect(try await todayTitles(world, world.cat) == ["Saturday swim"])
        }
    }

    @Test func daylightSavingDays() async throws {
        // New York springs forward on Sunday 2027-03-14: at 2027-03-15T03:30Z it is 23:30 EDT on the 14th
        // (a fixed UTC-5 offset would wrongly say 22:30; a fixed UTC-4 offset is right only after the change).
        try await HabitsWorld.run(at: "2027-03-14T06:30:00Z") { world in
            try await world.setTimeZone(world.ann, "America/New_York")
            try await world.setTimeZone(world.bob, "Pacific/Auckland")
            let sunday = try await world.habit(world.ann, "Sunday", weekdays: ["sun"], startDate: "2027-03-01")
            try await world.habit(world.ann, "Monday", weekdays: ["mon"], startDate: "2027-03-01")
            // 01:30 EST on the 14th
            #expect(try await todayTitles(world, world.ann) == ["Sunday"])
            try await world.move(to: "2027-03-15T03:30:00Z")
            // 23:30 EDT: still Sunday, the day is 23 hours long
            #expect(try await todayTitles(world, world.ann) == ["Sunday"])
            #expect(try await world.event(world.ann, sunday).decode(WireHabitEvent.self).date == "2027-03-14")
            try await world.move(to: "2027-03-15T04:30:00Z")
            #expect(try await todayTitles(world, world.ann) == ["Monday"])
        }
        // Auckland falls back on Sunday 2027-04-04 (NZDT+13 -> NZST+12): 2027-04-04T11:30Z is 23:30 on the 4th
        try await HabitsWorld.run(at: "2027-04-04T11:30:00Z") { world in
            try await world.setTimeZone(world.ann, "Pacific/Auckland")
            try await world.habit(world.ann, "Sunday", weekdays: ["sun"], startDate: "2027-03-01")
            try await world.habit(world.ann, "Monday", weekdays: ["mon"], startDate: "2027-03-01")
            #expect(try await todayTitles(world, world.ann) == ["Sunday"])
            try await world.move(to: "2027-04-04T12:30:00Z")
            #expect(try await todayTitles(world, world.ann) == ["Monday"])
        }
    }
}
