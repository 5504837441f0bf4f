import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// My habits (create, view, edit, delete, today's to-do), my time zone, and the habits of people who
/// approved my follow request.
struct HabitsController {
    let store: any HabitsStore
    let graph: any FollowingIDsLookup
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

    /// My habits in my order; `archived=false` (default) the active ones, `true` the archived ones, `all` both.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> HabitList {
        let me = context.user.userID
        let archived = request.uri.queryParameters["archived"].map(String.init) ?? "false"
        guard ["false", "true", "all"].contains(archived) else {
            throw HabitsError.invalidField("archived", "must be false, true or all.")
        }
        let today = try await store.today(of: me, clock: clock)
        let items = try await store.habitsWithStatus(of: [me], todays: [me: today]).filter {
            archived == "all" || ($0.habit.archivedAt != nil) == (archived == "true")
        }.map { HabitView($0.habit, status: $0.status) }
        let page = try request.page(of: items)
        return HabitList(
            items: page.items, nextCursor: page.nextCursor, message: items.isEmpty ? Self.emptyMessage : nil)
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
        let start = try input.startDate.map { try HabitFields.startDate($0, today: today) } ?? today
        let target = try input.target.map { try Amounts.thousandths($0, field: "target", positive: true) }
        guard target != nil || input.unit == nil else {
            throw HabitsError.invalidField("unit", "only a measurable habit (one with a target) has a unit.")
        }
        guard input.archived == nil else { throw HabitsError.invalidField("archived", "a new habit is active.") }
        let habit = HabitRecord(
            id: UUID().uuidString.lowercased(), userId: me, title: try HabitFields.title(title),
            reason: try HabitFields.reason(input.reason ?? ""), weekdays: try Weekdays(names: weekdays).bits,
            startDate: start.description, createdAt: now, updatedAt: now, targetMilli: target,
            unit: try target.map { _ in try HabitFields.unit(input.unit ?? "") },
            reminderMinute: try HabitFields.reminder(input.reminder ?? nil))
        try await store.createHabit(habit)
        return EditedResponse(status: .created, response: HabitView(habit, status: .noEventsYet))
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> HabitView {
        try await view(try context.parameters.require("habit"), of: context.user.userID)
    }

    /// Changes the given fields; the others stay as they were.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> HabitView {
        let input = try await request.decode(as: HabitRequest.self, context: context)
        let title = try input.title.map(HabitFields.title)
        let reason = try input.reason.map(HabitFields.reason)
        let weekdays = try input.weekdays.map { try Weekdays(names: $0) }
        let target = try input.target.map { try Amounts.thousandths($0, field: "target", positive: true) }
        let unit = try input.unit.map(HabitFields.unit)
        let reminder = try input.reminder.map { try HabitFields.reminder($0) }
        let id = try context.parameters.require("habit")
        let today = try await store.today(of: context.user.userID, clock: clock)
        let start = try input.startDate.map { try HabitFields.startDate($0, today: today) }
        let (now, archived) = (clock.now, input.archived)
        _ = try await store.updateHabit(id, owner: context.user.userID, now: now) { habit in
            if let title { habit.title = title }
            if let reason { habit.reason = reason }
            if let weekdays { habit.weekdays = weekdays.bits }
            if let start { habit.startDate = start.description }
            try HabitFields.applyMeasure(target: target, unit: unit, to: &habit)
            if let reminder { habit.reminderMinute = reminder }
            if let archived { habit.archivedAt = archived ? (habit.archivedAt ?? now) : nil }
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
        let items = try await store.todayList(of: me, clock: clock).map(TodayHabitView.init)
        let message: String? =
            items.isEmpty
            ? "Nothing is due today."
            : items.allSatisfy { $0.doneToday || $0.excusedToday } ? "All done for today." : nil
        let page = try request.page(of: items)
        return TodayList(items: page.items, nextCursor: page.nextCursor, message: message)
    }

    /// The habits (title, schedule, status) of the people who approved my follow requests.
    @Sendable func following(_ request: Request, context: AuthenticatedContext) async throws -> Page<
        FollowedHabitView
    > {
        let followees = try await graph.followingIDs(
            of: context.user.userID, requestID: request.headers[HTTPField.Name(PlatformHeaders.requestID)!])
        let todays = try await store.todays(of: followees, clock: clock)
        return try request.page(
            of:
                try await store.habitsWithStatus(of: followees, todays: todays).filter { $0.habit.archivedAt == nil }
                .map {
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
}
