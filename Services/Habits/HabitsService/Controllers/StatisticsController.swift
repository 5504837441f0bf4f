import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Per-habit statistics over due days only: completion rate, streaks, strength, and a weekly chart.
struct StatisticsController {
    let store: any HabitsStore
    let clock: WallClock
    static let maximumRangeDays = 3_700
    static let maximumWeeks = 53

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HabitsPaths.habits + "/:habit/statistics"), use: statistics)
        router.get(RouterPath(HabitsPaths.habits + "/:habit/statistics/chart.svg"), use: chart)
    }

    struct Strength: Encodable, Sendable {
        /// 0 ... 1.
        var score: Double
        /// The change since 30 days ago, in score points (-1 ... 1).
        var change30Days: Double
        var halfLifeDueDays: Double
        /// How much the latest due day moved the score: its weight in the average.
        var latestDueDayWeight: Double
        var explanation: String
    }

    struct Week: Encodable, Sendable {
        var weekStart: String
        var completions: Int
    }

    struct Statistics: ResponseEncodable, Sendable {
        var habitId: String
        var from: String
        var to: String
        var dueDays: Int
        var completedDueDays: Int
        var completionRate: Double
        var currentStreak: Int
        var bestStreak: Int
        /// Due days in the range that were skipped or paused (and not done): left out of the rate, streaks and
        /// strength.
        var skippedOrPausedDueDays: Int
        var strength: Strength
        var weeks: [Week]
    }

    /// Statistics of my habit; the rate covers `from ... to` (the habit's start to today by default).
    @Sendable func statistics(_ request: Request, context: AuthenticatedContext) async throws -> Statistics {
        let (habit, progress) = try await self.progress(context)
        let query = request.uri.queryParameters
        let to = try query["to"].map { try Self.day($0, field: "to") } ?? progress.today
        let from = try query["from"].map { try Self.day($0, field: "from") } ?? habit.start
        guard from <= to else { throw HabitsError.invalidField("from", "must not be after to.") }
        guard to.number - from.number <= Self.maximumRangeDays else {
            throw HabitsError.invalidField("from", "the range may cover at most \(Self.maximumRangeDays) days.")
        }
        let summary = progress.summary(from: from, to: to)
        let weight = 1 - HabitProgress.strengthMultiplier
        return Statistics(
            habitId: habit.id, from: from.description, to: to.description, dueDays: summary.dueDays,
            completedDueDays: summary.completedDueDays, completionRate: summary.completionRate,
            currentStreak: summary.currentStreak, bestStreak: summary.bestStreak,
            skippedOrPausedDueDays: summary.excusedDueDays,
            strength: Strength(
                score: summary.strength, change30Days: summary.strength - summary.strength30DaysAgo,
                halfLifeDueDays: HabitProgress.strengthHalfLife, latestDueDayWeight: weight,
                explanation:
                    "An exponentially weighted average of done (1) and missed (0) due days: each due day moves the "
                    + "score \(Int((weight * 100).rounded()))% of the way towards its outcome, so a day's weight halves "
                    + "after 13 due days. Days the habit is not due leave it unchanged, and so do skipped and paused "
                    + "days: they neither count nor break a streak (a skipped or paused day that is done still counts "
                    + "as done)." + (habit.targetMilli == nil ? "" : " A day is done when its value meets the target.")),
            weeks: try Self.weeks(query["weeks"], progress))
    }

    /// Completions per week as an SVG column chart.
    @Sendable func chart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let (habit, progress) = try await self.progress(context)
        let weeks = try Self.weeks(request.uri.queryParameters["weeks"], progress)
        let svg = SVGChart.columns(
            weeks.map { SVGChart.Bar(label: String($0.weekStart.dropFirst(5)), value: $0.completions) },
            title: "\(habit.title): completions per week")
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=60"],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }

    private func progress(_ context: AuthenticatedContext) async throws -> (HabitRecord, HabitProgress) {
        let me = context.user.userID
        let days = try await store.eventDays(of: try context.parameters.require("habit"), owner: me)
        let today = try await store.today(of: me, clock: clock)
        let habit = days.habit
        return (
            habit,
            HabitProgress(
                weekdays: habit.schedule, start: habit.start, today: today, done: days.done, excused: days.excused)
        )
    }

    static func weeks(_ value: Substring?, _ progress: HabitProgress) throws -> [Week] {
        var count = 12
        if let value {
            guard let weeks = Int(value), (1...maximumWeeks).contains(weeks) else {
                throw HabitsError.invalidField("weeks", "must be a whole number from 1 to \(maximumWeeks).")
            }
            count = weeks
        }
        return progress.weeklyCompletions(weeks: count).map {
            Week(weekStart: $0.weekStart.description, completions: $0.completions)
        }
    }

    static func day(_ value: Substring, field: String) throws -> LocalDay {
        guard let day = LocalDay(value) else { throw HabitsError.invalidField(field, "must be a day as YYYY-MM-DD.") }
        return day
    }
}
