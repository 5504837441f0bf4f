import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// My habits (create, view, edit, delete, today's to-do), my time zone, and the habits of people who
/// approved my follow request.
struct HabitsController {
    let store: any HabitsStore
    let graph: any FollowGraph
    let clock: WallClock

    static let emptyMessage = "You have no habits yet. Add your first habit to start tracking it!"

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HabitsPaths.preferences), use: preferences)
        router.put(RouterPath(HabitsPaths.preferences), use: setPreferences)
        router.get(RouterPath(HabitsPaths.habits), use: list)
        router.post(RouterPath(HabitsPaths.habits), use: create)
        router.get(RouterPath(HabitsPaths.today), use: today)
        router.get(RouterPath(HabitsPaths.following), use: following)
        router.get(RouterPath(HabitsPaths.habits + "/:habit"), use: show)
        router.patch(RouterPath(HabitsPaths.habits + "/:habit"), use: update)
        router.delete(RouterPath(HabitsPaths.habits + "/:habit"), use: delete)
    }

    // MARK: Preferences

    struct Preferences: ResponseEncodable, Sendable, Decodable {
        var timeZone: String
    }

    @Sendable func preferences(_ request: Request, context: AuthenticatedContext) async throws -> Preferences {
        Preferences(timeZone: try await store.timeZone(of: context.user.userID))
    }

    /// Sets my IANA time zone: "today", due days and the default start date are computed in it.
    @Sendable func setPreferences(_ request: Request, context: AuthenticatedContext) async throws -> Preferences {
        let input = try await request.decode(as: Preferences.self, context: context)
        guard TimeZoneNames.isValid(input.timeZone) else {
            throw HabitsError.invalidField("timeZone", "must be an IANA time zone such as Europe/Paris.")
        }
        try await store.setTimeZone(of: context.user.userID, to: input.timeZone)
        return input
    }

    // MARK: Habits

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> HabitList {
        let me = context.user.userID
        let today = try await store.today(of: me, clock: clock)
        let items = try await store.habitsWithStatus(of: [me], todays: [me: today]).map {
            HabitView($0.habit, status: $0.status)
        }
        let page = try request.page(of: items)
        return HabitList(
            items: page.items, nextCursor: page.nextCursor, message: items.isEmpty ? Self.emptyMessage : nil)
    }

    struct HabitRequest: Decodable {
        var title: String?
        var reason: String?
        var weekdays: [String]?
        /// `YYYY-MM-DD` in my time zone; today by default.
        var startDate: String?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<HabitView> {
        let input = try await request.decode(as: HabitRequest.self, context: context)
        guard let title = input.title else { throw HabitsError.invalidField("title", "is required.") }
        guard let weekdays = input.weekdays else {
            throw HabitsError.invalidField("weekdays", "choose at least one day.")
        }
        let me = context.user.userID
        let now = clock.now
        let today = try await store.today(of: me, clock: clock)
        let start = try input.startDate.map { try Self.startDate($0, today: today) } ?? today
        let habit = HabitRecord(
            id: UUID().uuidString.lowercased(), userId: me, title: try Self.title(title),
            reason: try Self.reason(input.reason ?? ""), weekdays: try Weekdays(names: weekdays).bits,
            startDate: start.description,
            createdAt: now, updatedAt: now)
        try await store.createHabit(habit)
        return EditedResponse(status: .created, response: HabitView(habit, status: .noEventsYet))
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> HabitView {
        try await view(try context.parameters.require("habit"), of: context.user.userID)
    }

    /// Changes the given fields; the others stay as they were.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> HabitView {
        let input = try await request.decode(as: HabitRequest.self, context: context)
        let title = try input.title.map(Self.title)
        let reason = try input.reason.map(Self.reason)
        let weekdays = try input.weekdays.map { try Weekdays(names: $0) }
        let id = try context.parameters.require("habit")
        let today = try await store.today(of: context.user.userID, clock: clock)
        let start = try input.startDate.map { try Self.startDate($0, today: today) }
        _ = try await store.updateHabit(id, owner: context.user.userID, now: clock.now) { habit in
            if let title { habit.title = title }
            if let reason { habit.reason = reason }
            if let weekdays { habit.weekdays = weekdays.bits }
            if let start { habit.startDate = start.description }
        }
        return try await view(id, of: context.user.userID)
    }

    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.deleteHabit(try context.parameters.require("habit"), owner: context.user.userID)
        return .noContent
    }

    /// Every habit due today in my time zone, done or not: a done habit stays on the list with today's event,
    /// so the app can show it ticked and open or undo that event.
    @Sendable func today(_ request: Request, context: AuthenticatedContext) async throws -> TodayList {
        let me = context.user.userID
        let items = try await store.todayList(of: me, clock: clock).map {
            TodayHabitView(
                habit: HabitView($0.habit, status: $0.status), todayEventId: $0.todayEventID.map(String.init))
        }
        let message: String? =
            items.isEmpty ? "Nothing is due today." : items.allSatisfy(\.doneToday) ? "All done for today." : nil
        let page = try request.page(of: items)
        return TodayList(items: page.items, nextCursor: page.nextCursor, message: message)
    }

    /// The habits (title, schedule, status) of the people who approved my follow requests.
    @Sendable func following(_ request: Request, context: AuthenticatedContext) async throws -> Page<
        FollowedHabitView
    > {
        let followees = try await graph.followees(
            of: context.user.userID, requestID: request.headers[HTTPField.Name(PlatformHeaders.requestID)!])
        let todays = try await store.todays(of: followees, clock: clock)
        return try request.page(
            of:
                try await store.habitsWithStatus(of: followees, todays: todays).map {
                    FollowedHabitView(
                        id: $0.habit.id, ownerId: $0.habit.userId, title: $0.habit.title,
                        weekdays: $0.habit.schedule.names,
                        status: $0.status)
                })
    }

    // MARK: Helpers

    private func view(_ id: String, of owner: String) async throws -> HabitView {
        let today = try await store.today(of: owner, clock: clock)
        guard let entry = try await store.habitsWithStatus(of: [owner], only: id, todays: [owner: today]).first
        else { throw HabitsError.notFound("The habit") }
        return HabitView(entry.habit, status: entry.status)
    }

    static func title(_ value: String) throws -> String { try Validate.text(value, field: "title", max: 20) }

    static func reason(_ value: String) throws -> String {
        try Validate.text(value, field: "reason", min: 0, max: 30)
    }

    /// The earliest start date: statistics walk every day from the start, so it is bounded.
    static let earliestStart = LocalDay("2000-01-01")!

    /// A start from 2000-01-01 to a year from today.
    static func startDate(_ value: String, today: LocalDay) throws -> LocalDay {
        guard let day = LocalDay(value) else {
            throw HabitsError.invalidField("startDate", "must be a day as YYYY-MM-DD.")
        }
        guard day >= earliestStart, day <= today.adding(days: 366) else {
            throw HabitsError.invalidField("startDate", "must be from 2000-01-01 to a year from today.")
        }
        return day
    }
}
