import Foundation

/// A household's balances in each currency (never converted), the settle-up plan, and one member's part of it.
struct BalanceSheet: Sendable, Equatable {
    /// One person's net balance: positive when they are owed money.
    struct Net: Sendable, Equatable {
        var userID: String
        var net: Int
    }

    /// Everything about one currency.
    struct Currency: Sendable, Equatable {
        var currency: String
        /// The current members in their order, then anyone else with a balance (members who left), by id.
        var members: [Net]
        /// The fewest payments that settle everyone in this currency.
        var plan: [Transfer]
        /// The viewer's net balance.
        var myNet: Int
        /// The payments of the plan the viewer should make.
        var owes: [Transfer]
        /// The payments of the plan the viewer should receive.
        var owed: [Transfer]
    }

    /// One entry per currency, by code.
    var currencies: [Currency]

    /// The sheet for `net` (currency -> person -> net balance) as `me` sees it.
    init(members: [String], net: [String: [String: Int]], me: String) {
        currencies = net.keys.sorted().map { currency in
            let balances = net[currency] ?? [:]
            let plan = SettleUp.plan(balances)
            let everyone = members + balances.keys.filter { !members.contains($0) }.sorted()
            return Currency(
                currency: currency, members: everyone.map { Net(userID: $0, net: balances[$0] ?? 0) }, plan: plan,
                myNet: balances[me] ?? 0, owes: plan.filter { $0.from == me }, owed: plan.filter { $0.to == me })
        }
    }
}
