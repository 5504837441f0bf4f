import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// Skipped days and pauses of my habit (Loop Habit Tracker's "skip", Streaks' "pause"): a skipped or paused due day
/// neither counts nor breaks a streak, and no reminder is sent for it.
struct ExcusesController {
    let store: any HabitsStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HabitsPaths.habits + "/:habit/skips"), use: skips)
        router.put(RouterPath(HabitsPaths.habits + "/:habit/skips/:date"), use: skip)
        router.delete(RouterPath(HabitsPaths.habits + "/:habit/skips/:date"), use: unskip)
        router.get(RouterPath(HabitsPaths.habits + "/:habit/pauses"), use: pauses)
        router.post(RouterPath(HabitsPaths.habits + "/:habit/pauses"), use: addPause)
        router.delete(RouterPath(HabitsPaths.habits + "/:habit/pauses/:pause"), use: deletePause)
    }

    struct PauseView: ResponseEncodable, Sendable {
        var id: String
        var from: String
        var to: String

        init(_ pause: PauseRecord) {
            (id, from, to) = (String(pause.id), pause.from, pause.to)
        }
    }

    struct PauseRequest: Decodable {
        /// The first and last paused day (`YYYY-MM-DD`, inclusive).
        var from: String?
        var to: String?
    }

    /// Oldest first, paged as every list.
    @Sendable func skips(_ request: Request, context: AuthenticatedContext) async throws -> Page<String> {
        let days = try await store.skips(of: try context.parameters.require("habit"), owner: context.user.userID)
        return try request.page(of: days.map(\.description))
    }

    /// Skips the day (idempotent).
    @Sendable func skip(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await setSkip(context, skipped: true)
    }

    /// Takes the skip back (idempotent).
    @Sendable func unskip(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await setSkip(context, skipped: false)
    }

    private func setSkip(_ context: AuthenticatedContext, skipped: Bool) async throws -> HTTPResponse.Status {
        let me = context.user.userID
        let day = try Self.day(try context.parameters.require("date"), field: "date")
        try Excuses.checkSkip(day, today: try await store.today(of: me, clock: clock))
        try await store.setSkip(try context.parameters.require("habit"), owner: me, day: day, skipped: skipped)
        return .noContent
    }

    /// Earliest first, paged as every list.
    @Sendable func pauses(_ request: Request, context: AuthenticatedContext) async throws -> Page<PauseView> {
        let pauses = try await store.pauses(of: try context.parameters.require("habit"), owner: context.user.userID)
        return try request.page(of: pauses.map(PauseView.init))
    }

    @Sendable func addPause(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        PauseView
    > {
        let input = try await request.decode(as: PauseRequest.self, context: context)
        guard let fromText = input.from else { throw HabitsError.invalidField("from", "is required.") }
        guard let toText = input.to else { throw HabitsError.invalidField("to", "is required.") }
        let (from, to) = (try Self.day(fromText, field: "from"), try Self.day(toText, field: "to"))
        let me = context.user.userID
        try Excuses.checkPause(from: from, to: to, today: try await store.today(of: me, clock: clock))
        let pause = try await store.addPause(
            PauseRecord(
                id: 0, habitId: try context.parameters.require("habit"), from: from.description, to: to.description),
            owner: me)
        return EditedResponse(status: .created, response: PauseView(pause))
    }

    @Sendable func deletePause(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.deletePause(
            try context.parameters.id("pause", "The pause"), of: try context.parameters.require("habit"),
            owner: context.user.userID)
        return .noContent
    }

    static func day(_ text: String, field: String) throws -> LocalDay {
        guard let day = LocalDay(text) else { throw HabitsError.invalidField(field, "must be a day as YYYY-MM-DD.") }
        return day
    }
}
