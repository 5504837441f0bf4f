import Foundation
import PlatformKit
import TestSupport
import Testing

@Suite struct HabitsStatisticsTests {
    @Test func rateStreaksAndStrengthCountDueDaysOnly() async throws {
        // Mon/Wed/Fri from Monday 2027-01-04; today is Monday 2027-01-18
        try await HabitsWorld.run(at: "2027-01-18T12:00:00Z") { world in
            let habit = try await world.habit(
                world.ann, "Gym", weekdays: ["mon", "wed", "fri"], startDate: "2027-01-04")
            // due: 4 6 8 | 11 13 15 | 18 (today). Done: 4 6 8, 13 15 (11 missed); today not yet.
            for day in ["2027-01-04", "2027-01-06", "2027-01-08", "2027-01-13", "2027-01-15"] {
                try await world.recorded(world.ann, habit, EventBody(date: day))
            }
            let path = "\(HabitsPaths.habits)/\(habit)/statistics"
            let stats = try await world.api.get(path, token: world.token(world.ann))
            #expect(stats.status == 200, "\(stats.text)")
            let statistics = try stats.decode(WireHabitStatistics.self)
            #expect(statistics.dueDays == 6)
            #expect(statistics.completedDueDays == 5)
            #expect(abs(statistics.completionRate - 5.0 / 6.0) < 1e-9)
            // the weekend between Friday and Monday did not break the streak; today is not missed yet
            #expect(statistics.currentStreak == 2)
            #expect(statistics.bestStreak == 3)
            let strength = statistics.strength
            let m = pow(0.5, 1.0 / 13)
            var expected = 0.0
            for done in [1.0, 1, 1, 0, 1, 1] { expected = expected * m + done * (1 - m) }
            #expect(abs(strength.score - expected) < 1e-9)
            #expect(strength.halfLifeDueDays == 13)
            // a range
            let range = try await world.api.get(path + "?from=2027-01-11&to=2027-01-15", token: world.token(world.ann))
            let ranged = try range.decode(WireHabitStatistics.self)
            #expect(ranged.dueDays == 3)
            #expect(ranged.completedDueDays == 2)
            // today done: the streak grows
            try await world.recorded(world.ann, habit)
            let after = try await world.api.get(path, token: world.token(world.ann))
            let afterToday = try after.decode(WireHabitStatistics.self)
            #expect(afterToday.currentStreak == 3)
            // weeks: completions per ISO week, oldest first
            let weeks = afterToday.weeks
            #expect(weeks.count == 12)
            #expect(weeks.suffix(3).map(\.completions) == [3, 2, 1])
            #expect(weeks.last?.weekStart == "2027-01-18")
            // bad ranges are clear errors; nobody else reads them
            #expect(
                try await world.api.get(path + "?from=2027-01-15&to=2027-01-11", token: world.token(world.ann)).status
                    == 400)
            #expect(try await world.api.get(path + "?from=yesterday", token: world.token(world.ann)).status == 400)
            #expect(try await world.api.get(path + "?weeks=54", token: world.token(world.ann)).status == 400)
            #expect(try await world.api.get(path, token: world.token(world.bob)).status == 404)
        }
    }

    @Test func chartIsAnSVGOfCompletionsPerWeek() async throws {
        try await HabitsWorld.run(at: "2027-01-18T12:00:00Z") { world in
            let habit = try await world.habit(world.ann, "<b>Gym</b>", startDate: "2027-01-04")
            try await world.recorded(world.ann, habit, EventBody(date: "2027-01-05"))
            let path = "\(HabitsPaths.habits)/\(habit)/statistics/chart.svg?weeks=4"
            let chart = try await world.api.get(path, token: world.token(world.ann))
            #expect(chart.status == 200)
            #expect(chart.headers.first(name: "content-type") == "image/svg+xml")
            #expect(chart.text.hasPrefix("<svg"))
            #expect(chart.text.components(separatedBy: "<rect").count - 1 == 4)
            #expect(chart.text.contains("&lt;b&gt;Gym"))
            #expect(!chart.text.contains("<b>"))
            #expect(try await world.api.get(path, token: world.token(world.bob)).status == 404)
        }
    }
}
