import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Who did how much: counts and points per member and chore over a range, mine, and a bar chart.
struct StatisticsController {
    let database: HouseholdDatabase
    let directory: any UserDirectory
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HouseholdPaths.households + "/:household/statistics"), use: statistics)
        router.get(RouterPath(HouseholdPaths.households + "/:household/statistics/chart.svg"), use: chart)
    }

    struct ChoreCount: Encodable, Sendable {
        var chore: String
        var count: Int
        var points: Int
    }

    struct MemberStatistics: Encodable, Sendable {
        var userId: String
        var displayName: String
        var count: Int
        var points: Int
        var byChore: [ChoreCount]
    }

    struct Statistics: ResponseEncodable, Sendable {
        var from: String
        var to: String
        var members: [MemberStatistics]
        var mine: MemberStatistics
    }

    /// Statistics over `from`...`to` (days in the household's time zone; the last 30 days by default).
    @Sendable func statistics(_ request: Request, context: AuthenticatedContext) async throws -> Statistics {
        let householdID = try context.parameters.require("household")
        let query = request.uri.queryParameters
        let (members, from, to, rows) = try await database.statistics(
            of: householdID, asMember: context.user.userID, from: try HouseholdInput.day(query["from"], field: "from"),
            to: try HouseholdInput.day(query["to"], field: "to"), clock: clock)
        let names = Dictionary(
            try await directory.users(ids: members.map(\.userId)).map { ($0.id, $0.displayName) },
            uniquingKeysWith: { a, _ in a })
        let perMember = members.map { member in
            let own = rows.filter { $0.userID == member.userId }
            return MemberStatistics(
                userId: member.userId, displayName: names[member.userId] ?? "", count: own.reduce(0) { $0 + $1.count },
                points: own.reduce(0) { $0 + $1.points },
                byChore: own.map { ChoreCount(chore: $0.chore, count: $0.count, points: $0.points) })
        }
        let mine =
            perMember.first { $0.userId == context.user.userID }
            ?? MemberStatistics(userId: context.user.userID, displayName: "", count: 0, points: 0, byChore: [])
        return Statistics(from: from.description, to: to.description, members: perMember, mine: mine)
    }

    /// The members' points as an SVG bar chart.
    @Sendable func chart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let stats = try await statistics(request, context: context)
        let svg = StatisticsChart.svg(
            bars: stats.members.map {
                ($0.displayName.isEmpty ? String($0.userId.prefix(8)) : $0.displayName, $0.points)
            },
            title: "Points \(stats.from) to \(stats.to)")
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=60"],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }
}
