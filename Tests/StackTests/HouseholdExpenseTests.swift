import Foundation
import PlatformKit
import TestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Who spent what, month by month: each member's share of the bills and what they paid, as numbers and as a chart.
@Suite struct HouseholdExpenseTests {
    struct Expenses: Decodable, Sendable {
        struct Member: Decodable, Sendable, Equatable {
            var userId: String
            var share: Int
            var paid: Int
        }
        struct MonthExpenses: Decodable, Sendable {
            var month: String
            var total: Int
            var members: [Member]
        }
        struct Named: Decodable, Sendable {
            var userId: String
            var displayName: String
            var share: Int
            var paid: Int
        }
        var from: String
        var to: String
        var currency: String?
        var currencies: [String]
        var months: [MonthExpenses]
        var members: [Named]
    }

    static func bill(_ world: HouseholdWorld, _ id: String, _ payer: TestUser, _ amount: Int, _ currency: String)
        async throws
    {
        let response = try await world.api.post(
            world.path(id, "/bills"), token: world.token(payer),
            raw: #"{"description":"Bill","amount":\#(amount),"currency":"\#(currency)","split":{"kind":"equal"}}"#)
        #expect(response.status == 201, "\(response.text)")
    }

    @Test func sharesAndPaymentsPerMonthAndMemberAsNumbersAndAChart() async throws {
        try await HouseholdWorld.run { world in
            // given: ann pays 30.00 EUR this month; next month bob pays 6.00 EUR and ann 9.00 USD
            _ = try await world.api.patch(
                IdentityPaths.me, token: world.ann.accessToken, json: ["displayName": "<b>Ann & co</b>"])
            let id = try await world.household(world.ann, with: [world.bob, world.cat])
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = .gmt
            let month = { (date: Date) in
                let parts = calendar.dateComponents([.year, .month], from: date)
                return String(format: "%04d-%02d", parts.year!, parts.month!)
            }
            let first = month(world.stack.clock.now)
            try await Self.bill(world, id, world.ann, 3_000, "EUR")
            let nextMonth = calendar.dateInterval(of: .month, for: world.stack.clock.now)!.end
            try await world.advance(days: nextMonth.timeIntervalSince(world.stack.clock.now) / 86_400 + 1)
            let second = month(world.stack.clock.now)
            try await Self.bill(world, id, world.bob, 600, "EUR")
            try await Self.bill(world, id, world.ann, 900, "USD")
            let path = world.path(id, "/statistics/expenses")
            // when
            let answer = try await world.api.get(path + "?from=\(first)&to=\(second)", token: world.token(world.cat))
            // then: euros, the currency with the most bills; both months; everyone's share and payments
            #expect(answer.status == 200, "\(answer.text)")
            let expenses = try answer.decode(Expenses.self)
            #expect(expenses.currency == "EUR" && expenses.currencies == ["EUR", "USD"])
            #expect(expenses.months.map(\.month) == [first, second])
            #expect(expenses.months.map(\.total) == [3_000, 600])
            let (ann, bob, cat) = (world.ann.id, world.bob.id, world.cat.id)
            #expect(
                expenses.months[0].members == [
                    .init(userId: ann, share: 1_000, paid: 3_000), .init(userId: bob, share: 1_000, paid: 0),
                    .init(userId: cat, share: 1_000, paid: 0),
                ])
            #expect(
                expenses.months[1].members == [
                    .init(userId: ann, share: 200, paid: 0), .init(userId: bob, share: 200, paid: 600),
                    .init(userId: cat, share: 200, paid: 0),
                ])
            #expect(expenses.members.map(\.share) == [1_200, 1_200, 1_200])
            #expect(expenses.members.map(\.paid) == [3_000, 600, 0])
            #expect(expenses.members[0].displayName == "<b>Ann & co</b>")
            // another currency on request; the last six months by default
            let dollars = try await world.api.get(path + "?currency=usd", token: world.token(world.bob))
                .decode(Expenses.self)
            #expect(dollars.currency == "USD" && dollars.months.count == 6 && dollars.to == second)
            #expect(dollars.months.last?.members.map(\.share) == [300, 300, 300])
            #expect(dollars.months.dropLast().allSatisfy { $0.total == 0 })
            // the chart: well-formed SVG, names escaped, each month labelled
            let chart = try await world.api.get(
                world.path(id, "/statistics/expenses.svg") + "?from=\(first)&to=\(second)",
                token: world.token(world.ann))
            #expect(chart.headers.first(name: "content-type") == "image/svg+xml")
            #expect(XMLParser(data: chart.body).parse(), "\(chart.text)")
            #expect(chart.text.contains("&lt;b&gt;Ann &amp; co&lt;/b&gt;") && !chart.text.contains("<b>"))
            #expect(chart.text.contains(first) && chart.text.contains(second) && chart.text.contains("(EUR)"))
            // refused, naming the field; nobody outside the household reads it
            for (query, field) in [
                ("?from=2026-13", "from"), ("?from=\(second)&to=\(first)", "from"),
                ("?from=2024-01&to=2026-02", "from"),
                ("?to=26-01", "to"), ("?currency=EURO", "currency"),
            ] {
                let refused = try await world.api.get(path + query, token: world.token(world.ann))
                #expect(refused.status == 400 && refused.problem?.errors?.map(\.field) == [field], "\(query)")
            }
            let stranger = try await world.stack.register("dan")
            #expect(try await world.api.get(path, token: stranger.accessToken).status == 404)
        }
    }
}
