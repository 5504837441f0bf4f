import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Who did how much: counts and points per member and chore over a range, mine, and a bar chart; and who spent
/// how much, month by month, as numbers and as a chart.
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
        let (members, from, to, rows) = try await store.statistics(
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

    struct MemberExpenses: Encodable, Sendable {
        var userId: String
        /// Their part of the bills (what they consumed), in minor units.
        var share: Int
        /// What they paid for the household.
        var paid: Int
    }

    struct MonthExpenses: Encodable, Sendable {
        var month: String
        /// Every bill of the month in this currency.
        var total: Int
        var members: [MemberExpenses]
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
    }

    /// `?from=2026-01&to=2026-06&currency=EUR`: each member's share of the bills and what they paid, per month in
    /// the household's zone (the last six months by default, at most 24).
    @Sendable func expenses(_ request: Request, context: AuthenticatedContext) async throws -> Expenses {
        let query = request.uri.queryParameters
        let asked = try query["currency"].map { try Money.currency(String($0)) }
        let (from, to) = (query["from"], query["to"])
        let (members, months, bills) = try await store.expenseBills(
            of: try context.parameters.require("household"), asMember: context.user.userID, now: clock.now
        ) { thisMonth in try ExpenseStatistics.months(from: from, to: to, thisMonth: thisMonth) }
        let currency = asked ?? ExpenseStatistics.usualCurrency(bills)
        let tally = currency.map { ExpenseStatistics.tally(bills, currency: $0, months: months) } ?? [:]
        var everyone = members
        for id in tally.values.flatMap(\.keys).sorted() where !everyone.contains(id) { everyone.append(id) }
        let names = Dictionary(
            try await directory.users(ids: everyone).map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
        return Expenses(
            from: months[0].description, to: months[months.count - 1].description, currency: currency,
            currencies: Set(bills.map(\.currency)).sorted(),
            months: months.map { month in
                let figures = tally[month] ?? [:]
                return MonthExpenses(
                    month: month.description, total: figures.values.reduce(0) { $0 + $1.paid },
                    members: everyone.map {
                        MemberExpenses(userId: $0, share: figures[$0]?.share ?? 0, paid: figures[$0]?.paid ?? 0)
                    })
            },
            members: everyone.map { id in
                let all = tally.values.compactMap { $0[id] }
                return NamedMember(
                    userId: id, displayName: names[id] ?? "", share: all.reduce(0) { $0 + $1.share },
                    paid: all.reduce(0) { $0 + $1.paid })
            })
    }

    /// The same numbers as an SVG: a stacked column per month, one colour per member.
    @Sendable func expensesChart(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let expenses = try await expenses(request, context: context)
        var tally: [Month: [String: ExpenseStatistics.Figures]] = [:]
        for month in expenses.months {
            guard let key = Month(Substring(month.month)) else { continue }
            tally[key] = Dictionary(
                uniqueKeysWithValues: month.members.map { ($0.userId, .init(share: $0.share, paid: $0.paid)) })
        }
        let svg = ExpenseStatistics.svg(
            months: expenses.months.compactMap { Month(Substring($0.month)) },
            members: expenses.members.map {
                ($0.userId, $0.displayName.isEmpty ? String($0.userId.prefix(8)) : $0.displayName)
            }, tally: tally, currency: expenses.currency)
        return Response(
            status: .ok, headers: [.contentType: "image/svg+xml", .cacheControl: "private, max-age=60"],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }
}
