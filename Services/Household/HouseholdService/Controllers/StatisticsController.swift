import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Who did how much: counts and points per member and chore over a range, mine, and a bar chart; and who spent
/// how much, month by month, as numbers and as a chart. Each JSON answer and its chart render the same figures.
struct StatisticsController {
    let store: any HouseholdStore
    let directory: any UserDirectory
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(HouseholdPaths.households + "/:household/statistics"), use: statistics)
        router.get(RouterPath(HouseholdPaths.households + "/:household/statistics/chart.svg"), use: chart)
        router.get(RouterPath(HouseholdPaths.households + "/:household/statistics/expenses"), use: expenses)
        router.get(RouterPath(HouseholdPaths.households + "/:household/statistics/expenses.svg"), use: expensesChart)
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

        init(_ member: ChoreStatistics.Member) {
            (userId, displayName, count, points) = (member.userID, member.displayName, member.count, member.points)
            byChore = member.byChore.map { ChoreCount(chore: $0.chore, count: $0.count, points: $0.points) }
        }
    }

    struct Statistics: ResponseEncodable, Sendable {
        var from: String
        var to: String
        var members: [MemberStatistics]
        var mine: MemberStatistics

        init(_ statistics: ChoreStatistics) {
            (from, to) = (statistics.from.description, statistics.to.description)
            (members, mine) = (statistics.members.map(MemberStatistics.init), MemberStatistics(statistics.mine))
        }
    }

    /// Statistics over `from`...`to` (days in the household's time zone; the last 30 days by default).
    @Sendable func statistics(_ request: Request, context: AuthenticatedContext) async throws -> Statistics {
        Statistics(try await choreStatistics(request, context: context))
    }

    /// The members' points as an SVG bar chart.
    @Sendable func chart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let statistics = try await choreStatistics(request, context: context)
        return Self.svg(
            StatisticsChart.svg(
                bars: statistics.members.map { ($0.label, $0.points) },
                title: "Points \(statistics.from) to \(statistics.to)"))
    }

    private func choreStatistics(_ request: Request, context: AuthenticatedContext) async throws -> ChoreStatistics {
        let query = request.uri.queryParameters
        let (members, from, to, rows) = try await store.statistics(
            of: try context.parameters.require("household"), asMember: context.user.userID,
            from: try HouseholdInput.day(query["from"], field: "from"),
            to: try HouseholdInput.day(query["to"], field: "to"), clock: clock)
        let ids = members.map(\.userId)
        return ChoreStatistics(
            from: from, to: to, members: ids, rows: rows, names: try await names(of: ids), me: context.user.userID)
    }

    struct MemberExpenses: Encodable, Sendable {
        var userId: String
        /// Their part of the bills (what they consumed), in minor units.
        var share: Int
        /// What they paid for the household.
        var paid: Int
    }

    struct CategoryExpenses: Encodable, Sendable {
        var category: String
        /// The category's bills in this currency.
        var total: Int
    }

    struct MonthExpenses: Encodable, Sendable {
        var month: String
        /// Every bill of the month in this currency.
        var total: Int
        var members: [MemberExpenses]
        /// The month's categories with bills, the largest first.
        var categories: [CategoryExpenses]
    }

    struct NamedMember: Encodable, Sendable {
        var userId: String
        var displayName: String
        var share: Int
        var paid: Int
    }

    struct Expenses: ResponseEncodable, Sendable {
        var from: String
        var to: String
        /// The currency shown (`?currency=`, else the one with the most bills); nil when there are none.
        var currency: String?
        /// Every currency with bills in these months, to ask for another.
        var currencies: [String]
        var months: [MonthExpenses]
        /// Totals over the months, for everyone who has a share (members who left included).
        var members: [NamedMember]
        /// Totals over the months per category with bills, the largest first.
        var categories: [CategoryExpenses]

        init(_ report: ExpenseReport) {
            (from, to, currency, currencies) = (
                report.first.description, report.last.description, report.currency, report.currencies
            )
            months = report.months.map { month in
                MonthExpenses(
                    month: month.description, total: report.total(in: month),
                    members: report.members.map {
                        let figures = report.figures(of: $0.userID, in: month)
                        return MemberExpenses(userId: $0.userID, share: figures.share, paid: figures.paid)
                    },
                    categories: report.categories(in: month).map { CategoryExpenses(category: $0, total: $1) })
            }
            categories = report.categories().map { CategoryExpenses(category: $0, total: $1) }
            members = report.members.map {
                NamedMember(userId: $0.userID, displayName: $0.displayName, share: $0.share, paid: $0.paid)
            }
        }
    }

    /// `?from=2026-01&to=2026-06&currency=EUR`: each member's share of the bills and what they paid, per month in
    /// the household's zone (the last six months by default, at most 24).
    @Sendable func expenses(_ request: Request, context: AuthenticatedContext) async throws -> Expenses {
        Expenses(try await expenseReport(request, context: context))
    }

    /// The same numbers as an SVG: a stacked column per month, one colour per member.
    @Sendable func expensesChart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        Self.svg(ExpenseStatistics.svg(try await expenseReport(request, context: context)))
    }

    private func expenseReport(_ request: Request, context: AuthenticatedContext) async throws -> ExpenseReport {
        let query = request.uri.queryParameters
        let asked = try query["currency"].map { try Money.currency(String($0)) }
        let (from, to) = (query["from"], query["to"])
        let (members, months, bills) = try await store.expenseBills(
            of: try context.parameters.require("household"), asMember: context.user.userID, now: clock.now
        ) { thisMonth in try ExpenseStatistics.months(from: from, to: to, thisMonth: thisMonth) }
        var report = ExpenseReport(members: members, months: months, bills: bills, currency: asked)
        report.name(try await names(of: report.members.map(\.userID)))
        return report
    }

    private func names(of ids: [String]) async throws -> [String: String] {
        Dictionary(
            try await directory.users(ids: ids).map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
    }

    private static func svg(_ svg: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=60"],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }
}
