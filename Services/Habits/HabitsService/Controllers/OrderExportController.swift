import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// My habits' manual order, and the CSV export of my events (one habit's, or all).
struct OrderExportController {
    let store: any HabitsStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.put(RouterPath(HabitsPaths.habits + "/order"), use: setOrder)
        router.get(RouterPath(HabitsPaths.habits + "/events.csv"), use: exportAll)
        router.get(RouterPath(HabitsPaths.habits + "/:habit/events.csv"), use: exportOne)
    }

    struct OrderRequest: Decodable {
        /// My habits' ids, first first; those not named keep their order after them.
        var ids: [String]?
    }

    /// Puts my habits (and so my list and today's list) in the order given.
    @Sendable func setOrder(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let input = try await request.decode(as: OrderRequest.self, context: context)
        guard let ids = input.ids else { throw HabitsError.invalidField("ids", "is required.") }
        try await store.setOrder(of: context.user.userID, ids: ids, now: clock.now)
        return .noContent
    }

    @Sendable func exportAll(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await export(of: context.user.userID, habitID: nil)
    }

    @Sendable func exportOne(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await export(of: context.user.userID, habitID: try context.parameters.require("habit"))
    }

    static let header = [
        "date", "habit_id", "habit", "value", "unit", "comment", "latitude", "longitude", "created_at",
    ]

    /// `text/csv` (RFC 4180, with a header line), oldest event first.
    private func export(of owner: String, habitID: String?) async throws -> Response {
        let events = try await store.exportEvents(of: owner, habitID: habitID)
        let today = try await store.today(of: owner, clock: clock)
        let units = Dictionary(
            try await store.habitsWithStatus(of: [owner], only: habitID, todays: [owner: today]).map {
                ($0.habit.id, $0.habit.unit ?? "")
            }, uniquingKeysWith: { a, _ in a })
        var csv = CSV.line(Self.header)
        for event in events {
            csv += CSV.line([
                event.day, CSV.quoted(event.habitId), CSV.text(event.habitTitle),
                event.valueMilli.map(Amounts.text) ?? "",
                CSV.text(event.valueMilli == nil ? "" : units[event.habitId] ?? ""),
                CSV.text(event.comment ?? ""), event.latitude.map { String($0) } ?? "",
                event.longitude.map { String($0) } ?? "", event.createdAt.ISO8601Format(),
            ])
        }
        let name = habitID == nil ? "habits-events.csv" : "habit-events.csv"
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/csv; charset=utf-8; header=present",
                .contentDisposition: "attachment; filename=\"\(name)\"", .cacheControl: "private, no-store",
            ],
            body: .init(byteBuffer: ByteBuffer(string: csv)))
    }
}
