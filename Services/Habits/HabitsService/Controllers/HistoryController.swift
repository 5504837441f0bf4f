import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

/// The habit history, newest first, as a list and as GeoJSON for the map: my events, the latest event
/// of each habit of the people I follow, or both, filtered by habit, comment text and "near me".
struct HistoryController {
    let store: any HabitsStore
    let graph: any FollowingIDsLookup

    enum Tab: String {
        case mine, friends, all
    }

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HabitsPaths.history), use: list)
        router.get(RouterPath(HabitsPaths.historyMap), use: map)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> Page<EventView> {
        try await page(request, context, locatedOnly: false)
    }

    @Sendable func map(_ request: Request, context: AuthenticatedContext) async throws -> EventMap {
        EventMap(try await page(request, context, locatedOnly: true))
    }

    private func page(_ request: Request, _ context: AuthenticatedContext, locatedOnly: Bool) async throws -> Page<
        EventView
    > {
        let query = request.uri.queryParameters
        let page = try request.pageRequest()
        guard let tab = Tab(rawValue: query["tab"].map(String.init) ?? "mine") else {
            throw Problem.badRequest("invalid_tab", "tab must be mine, friends or all.")
        }
        var filter = try Self.filter(
            habits: query.getAll("habit").map { String($0) }, comment: query["comment"].map(String.init),
            latitude: query["latitude"].map(String.init), longitude: query["longitude"].map(String.init))
        filter.locatedOnly = locatedOnly
        let me = context.user.userID
        if tab != .mine {
            let followees = try await graph.followingIDs(
                of: me, requestID: request.headers[HTTPField.Name(PlatformHeaders.requestID)!])
            filter.users = tab == .friends ? followees : [me] + followees
            filter.latestPerHabit = tab == .friends
        } else {
            filter.users = [me]
        }
        let rows = try await store.history(
            filter, after: try page.decodeCursor(as: HistoryKey.self), limit: page.limit + 1)
        return Page(fetched: rows.map(EventView.init), limit: page.limit) {
            HistoryKey(day: $0.date, id: Int64($0.id) ?? 0)
        }
    }

    static let maximumHabitsInFilter = 100

    /// Checks the filters: habit ids (repeated `habit`, or comma-separated), non-empty comment text, and
    /// a complete, valid point for "near me".
    static func filter(habits: [String], comment: String?, latitude: String?, longitude: String?) throws
        -> HistoryFilter
    {
        var filter = HistoryFilter(users: [])
        let habitIDs = habits.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
        if !habits.isEmpty {
            // `habit=` with nothing selected is an empty selection: an empty page, as a cleared filter in the app.
            guard habitIDs.count <= maximumHabitsInFilter else {
                throw Problem.invalidField("habit", "at most \(maximumHabitsInFilter) habits.")
            }
            filter.habitIDs = habitIDs
        }
        if let comment {
            let text = comment.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { throw Problem.badRequest("empty_search", "Enter text to search comments for.") }
            filter.comment = try Validate.text(text, field: "comment", max: 100)
        }
        switch (latitude, longitude) {
        case (nil, nil): break
        case (let latitude?, let longitude?):
            guard let lat = Double(latitude), let lon = Double(longitude) else {
                throw Problem.badRequest("invalid_location", "latitude and longitude must be numbers.")
            }
            try Validate.coordinate(latitude: lat, longitude: lon)
            filter.near = (lat, lon)
        default:
            throw Problem.badRequest("invalid_location", "Pass both latitude and longitude for events near you.")
        }
        return filter
    }
}
