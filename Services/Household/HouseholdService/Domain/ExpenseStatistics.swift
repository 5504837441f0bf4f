import Foundation
import PlatformKit
import ServiceKit

/// A calendar month in a household's zone, as `2026-03`.
struct Month: Hashable, Comparable, Sendable, CustomStringConvertible {
    var year: Int
    var month: Int

    init(year: Int, month: Int) {
        (self.year, self.month) = (year, month)
    }

    /// Parses `YYYY-MM` (years 2000 to 2999).
    init?(_ text: Substring) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]),
            let month = Int(parts[1]), (2000...2999).contains(year), (1...12).contains(month)
        else { return nil }
        (self.year, self.month) = (year, month)
    }

    init(_ day: LocalDay) {
        (year, month) = (day.year, day.month)
    }

    var description: String { String(format: "%04d-%02d", year, month) }
    var next: Month { month == 12 ? Month(year: year + 1, month: 1) : Month(year: year, month: month + 1) }
    var previous: Month { month == 1 ? Month(year: year - 1, month: 12) : Month(year: year, month: month - 1) }
    /// Its first day.
    var firstDay: LocalDay { LocalDay(year: year, month: month, day: 1)! }

    static func < (lhs: Month, rhs: Month) -> Bool { (lhs.year, lhs.month) < (rhs.year, rhs.month) }
}

/// Who spent what, month by month: each member's part of the household's bills (their share, what they consumed)
/// and what they paid, in one currency (amounts in different currencies are never added).
enum ExpenseStatistics {
    /// At most two years in one answer.
    static let maximumMonths = 24

    /// The months `from`...`to`; the last six up to this month by default.
    static func months(from: Substring?, to: Substring?, thisMonth: Month) throws -> [Month] {
        func parse(_ text: Substring?, _ field: String) throws -> Month? {
            guard let text else { return nil }
            guard let month = Month(text) else {
                throw HouseholdError.invalidField(field, "must be a month as YYYY-MM.")
            }
            return month
        }
        let last = try parse(to, "to") ?? thisMonth
        var first = try parse(from, "from") ?? last
        if from == nil { for _ in 1..<6 { first = first.previous } }
        guard first <= last else { throw HouseholdError.invalidField("from", "must not be after to.") }
        var months = [first]
        while let end = months.last, end < last {
            guard months.count < maximumMonths else {
                throw HouseholdError.invalidField("from", "must be at most \(maximumMonths) months before to.")
            }
            months.append(end.next)
        }
        return months
    }

    /// One bill's part in the statistics: when, in what currency, who paid what, and each member's share.
    struct BillShares: Sendable {
        var month: Month
        var currency: String
        /// One of ``BillCategory/all``.
        var category: String
        /// Payer -> what they paid of the bill (its payer alone, or each of several).
        var paid: [String: Int]
        var amount: Int
        var shares: [String: Int]
    }

    /// One member's figures.
    struct Figures: Sendable, Equatable {
        var share = 0
        var paid = 0
    }

    /// The currency to show when none is asked for: the one with the most bills (ties by code).
    static func usualCurrency(_ bills: [BillShares]) -> String? {
        Dictionary(grouping: bills, by: \.currency).max { a, b in
            (a.value.count, b.key) < (b.value.count, a.key)
        }?.key
    }

    /// Per month, each member's figures in `currency`.
    static func tally(_ bills: [BillShares], currency: String, months: [Month]) -> [Month: [String: Figures]] {
        var tally = Dictionary(uniqueKeysWithValues: months.map { ($0, [String: Figures]()) })
        for bill in bills where bill.currency == currency && tally[bill.month] != nil {
            for (payer, amount) in bill.paid {
                tally[bill.month, default: [:]][payer, default: Figures()].paid += amount
            }
            for (member, share) in bill.shares {
                tally[bill.month, default: [:]][member, default: Figures()].share += share
            }
        }
        return tally
    }

    /// Per month, the total of each category's bills in `currency` (categories without bills left out).
    static func categoryTally(_ bills: [BillShares], currency: String, months: [Month]) -> [Month: [String: Int]] {
        var tally = Dictionary(uniqueKeysWithValues: months.map { ($0, [String: Int]()) })
        for bill in bills where bill.currency == currency && tally[bill.month] != nil {
            tally[bill.month, default: [:]][bill.category, default: 0] += bill.amount
        }
        return tally
    }

    /// Stacked columns, one per month, one colour per member (their shares), with a legend.
    static func svg(_ report: ExpenseReport) -> String {
        let (months, tally, currency) = (report.months, report.tally, report.currency)
        let members = report.members.map { (id: $0.userID, name: $0.label) }
        let palette = ["#4a90d9", "#e8743b", "#19a979", "#ed4a7b", "#945ecf", "#13a4b4", "#525df4", "#bf399e"]
        let columnWidth = 40, gap = 12, left = 60, top = 40, plotHeight = 160, bottom = 30
        let legendTop = top + plotHeight + bottom
        let width = max(320, left + months.count * (columnWidth + gap) + 10)
        let height = legendTop + members.count * 18 + 10
        let totals = months.map { month in tally[month, default: [:]].values.reduce(0) { $0 + $1.share } }
        let maximum = max(totals.max() ?? 0, 1)
        let title = currency.map { "Spending per month (\($0))" } ?? "No expenses in these months"
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" viewBox="0 0 \(width) \(height)" font-family="sans-serif" font-size="11">
            <text x="10" y="22" font-size="15" font-weight="bold">\(Markup.escaped(title))</text>

            """
        for (index, month) in months.enumerated() {
            let x = left + index * (columnWidth + gap)
            var y = top + plotHeight
            for (memberIndex, member) in members.enumerated() {
                let share = tally[month]?[member.id]?.share ?? 0
                guard share > 0 else { continue }
                let length = max(plotHeight * share / maximum, 1)
                y -= length
                svg += """
                    <rect x="\(x)" y="\(y)" width="\(columnWidth)" height="\(length)" fill="\(palette[memberIndex % palette.count])"><title>\(Markup.escaped(member.name)): \(MinorUnits.decimal(share, currency ?? "EUR"))</title></rect>

                    """
            }
            svg += """
                <text x="\(x + columnWidth / 2)" y="\(y - 4)" text-anchor="middle">\(MinorUnits.decimal(totals[index], currency ?? "EUR"))</text>
                <text x="\(x + columnWidth / 2)" y="\(top + plotHeight + 16)" text-anchor="middle">\(month)</text>

                """
        }
        for (index, member) in members.enumerated() {
            let y = legendTop + index * 18
            svg += """
                <rect x="10" y="\(y)" width="12" height="12" fill="\(palette[index % palette.count])"/>
                <text x="28" y="\(y + 10)">\(Markup.escaped(String(member.name.prefix(30))))</text>

                """
        }
        return svg + "</svg>\n"
    }
}
