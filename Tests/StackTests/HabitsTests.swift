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
            let emptyList = try empty.decode(WireHabitList.self)
            #expect(emptyList.items.isEmpty)
            #expect(emptyList.message?.contains("first habit") == true)
            // when ann creates one without a start date
            let created = try await world.api.post(
                HabitsPaths.habits, token: world.token(world.ann),
                json: HabitBody(title: "Run", reason: "Stay fit", weekdays: ["mon", "wed", "fri"]))
            #expect(created.status == 201)
            let habit = try created.decode(WireHabit.self)
            let id = habit.id
            // then it starts today in her time zone, with no events yet
            #expect(habit.startDate == "2027-01-04")
            #expect(habit.status == "no_events_yet")
            #expect(habit.weekdays == ["mon", "wed", "fri"])
            let list = try await world.api.get(HabitsPaths.habits, token: world.token(world.ann))
            #expect(try world.titles(list) == ["Run"])
            #expect(try list.decode(WireHabitList.self).message == nil)
            let shown = try await world.api.get("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann))
            #expect(try shown.decode(WireHabit.self).reason == "Stay fit")
            // when she edits the title and schedule only
            let edited = try await world.api.patch(
                "\(HabitsPaths.habits)/\(id)", token: world.token(world.ann),
                json: HabitBody(title: "Jog", weekdays: ["sat"]))
            #expect(edited.status == 200)
            let editedHabit = try edited.decode(WireHabit.self)
            #expect(editedHabit.title == "Jog")
            #expect(editedHabit.reason == "Stay fit")
            #expect(editedHabit.weekdays == ["sat"])
            // when she deletes it, it is gone
            #expect(
                try await world.api.delete("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann)).status == 204)
            #expect(try await world.api.get("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann)).status == 404)
            #expect(
                try world.habits(try await world.api.get(HabitsPaths.habits, token: world.token(world.ann))).isEmpty)
        }
    }
}

@Suite struct HabitsTodayTests {
    @Test func todayListsEveryDueHabitAndSaysWhichAreDone() async throws {
        // 2027-01-04 is a Monday
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let monday = try await world.habit(world.ann, "Gym", weekdays: ["mon", "thu"], startDate: "2027-01-01")
            try await world.habit(world.ann, "Swim", weekdays: ["tue"], startDate: "2027-01-01")
            try await world.habit(world.ann, "Later", weekdays: HabitBody.everyDay, startDate: "2027-01-05")
            let daily = try await world.habit(world.ann, "Floss")
            let before = try await world.today(world.ann)
            #expect(before.items.map(\.title) == ["Gym", "Floss"])
            #expect(before.items.allSatisfy { !$0.doneToday && $0.todayEventId == nil })
            #expect(before.message == nil)
            // once done today, a habit stays on the list, ticked, with today's event
            let gymEvent = try await world.recorded(world.ann, monday)
            let after = try await world.today(world.ann)
            #expect(after.items.map(\.title) == ["Gym", "Floss"])
            #expect(after.items.map(\.doneToday) == [true, false])
            #expect(after.items.map(\.todayEventId) == [gymEvent, nil])
            // the event it names is the one to open (or undo)
            let opened = try await world.api.get(
                "\(HabitsPaths.events)/\(gymEvent)", token: world.token(world.ann))
            #expect(try opened.decode(WireHabitEvent.self).habitId == monday)
            try await world.recorded(world.ann, daily)
            let done = try await world.today(world.ann)
            #expect(done.items.allSatisfy { $0.doneToday })
            #expect(done.message == "All done for today.")
            // bob sees none of it
            #expect(try await world.today(world.bob).items.isEmpty)
        }
    }

    @Test func statusIsNoEventsYetThenOnTrackThenBehind() async throws {
        try await HabitsWorld.run(at: "2027-01-04T12:00:00Z") { world in
            let id = try await world.habit(world.ann, "Walk", startDate: "2027-01-01")
            func status() async throws -> String {
                try await world.api.get("\(HabitsPaths.habits)/\(id)", token: world.token(world.ann))
                    .decode(WireHabit.self).status
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
