import Foundation

/// Who spent what over some months in one currency: the figures the expense statistics answer and chart both show.
struct ExpenseReport: Sendable, Equatable {
    /// One person's figures over all the months.
    struct Member: Sendable, Equatable {
        var userID: String
        var displayName = ""
        /// Their part of the bills (what they consumed), in minor units.
        var share: Int
        /// What they paid for the household.
        var paid: Int

        /// The name a chart shows: the start of the id for someone without a name.
        var label: String { displayName.isEmpty ? String(userID.prefix(8)) : displayName }
    }

    /// The months shown, oldest first (never empty).
    var months: [Month]
    /// The currency shown: the one asked for, else the one with the most bills; nil when there are none.
    var currency: String?
    /// Every currency with bills in these months.
    var currencies: [String]
    /// Per month, the figures of everyone with a share or a payment in it.
    var tally: [Month: [String: ExpenseStatistics.Figures]]
    /// The current members, then anyone else with figures (members who left), by id.
    var members: [Member]
    /// Per month, the total of each category's bills in the currency shown.
    var categoryTally: [Month: [String: Int]]

    /// The report over `months` (as ``ExpenseStatistics/months(from:to:thisMonth:)`` picks them) for the bills
    /// of those months; names are added with ``name(_:)`` once the people are known.
    init(members current: [String], months: [Month], bills: [ExpenseStatistics.BillShares], currency asked: String?) {
        self.months = months
        currency = asked ?? ExpenseStatistics.usualCurrency(bills)
        currencies = Set(bills.map(\.currency)).sorted()
        let tally = currency.map { ExpenseStatistics.tally(bills, currency: $0, months: months) } ?? [:]
        self.tally = tally
        categoryTally = currency.map { ExpenseStatistics.categoryTally(bills, currency: $0, months: months) } ?? [:]
        var everyone = current
        for id in tally.values.flatMap(\.keys).sorted() where !everyone.contains(id) { everyone.append(id) }
        self.members = everyone.map { id in
            let all = tally.values.compactMap { $0[id] }
            return Member(userID: id, share: all.reduce(0) { $0 + $1.share }, paid: all.reduce(0) { $0 + $1.paid })
        }
    }

    var first: Month { months[0] }
    var last: Month { months[months.count - 1] }

    /// Every bill of the month in the currency shown.
    func total(in month: Month) -> Int {
        (tally[month] ?? [:]).values.reduce(0) { $0 + $1.paid }
    }

    /// Each category with bills in `month` (over all the months when nil) and their total, the largest first
    /// (ties in the order of ``BillCategory/all``).
    func categories(in month: Month? = nil) -> [(category: String, total: Int)] {
        let tallies = month.map { [categoryTally[$0] ?? [:]] } ?? Array(categoryTally.values)
        let totals = tallies.reduce(into: [String: Int]()) { sum, tally in sum.merge(tally, uniquingKeysWith: +) }
        let order = { (category: String) in BillCategory.all.firstIndex(of: category) ?? BillCategory.all.count }
        return totals.map { (category: $0.key, total: $0.value) }.sorted {
            ($1.total, order($0.category)) < ($0.total, order($1.category))
        }
    }

    /// One person's figures in one month (zeros when they have none).
    func figures(of userID: String, in month: Month) -> ExpenseStatistics.Figures {
        tally[month]?[userID] ?? ExpenseStatistics.Figures()
    }

    /// Sets the display names (`id -> name`); people without one keep an empty name.
    mutating func name(_ names: [String: String]) {
        for index in members.indices { members[index].displayName = names[members[index].userID] ?? "" }
    }
}
