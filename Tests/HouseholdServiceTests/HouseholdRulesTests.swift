import Foundation
import PlatformKit
import Testing

@testable import HouseholdService

/// Chore statistics per member, as the JSON answer and the bar chart both show them.
@Suite struct ChoreStatisticsTests {
    let from = LocalDay(year: 2026, month: 3, day: 1)!
    let to = LocalDay(year: 2026, month: 3, day: 30)!

    @Test func sumsEachMembersChoresInTheMembersOrder() {
        // given
        let rows = [
            ChoreTally(userID: "b", chore: "Dishes", count: 3, points: 6),
            ChoreTally(userID: "a", chore: "Trash", count: 1, points: 1),
            ChoreTally(userID: "b", chore: "Trash", count: 2, points: 2),
        ]
        // when
        let statistics = ChoreStatistics(
            from: from, to: to, members: ["a", "b", "c"], rows: rows, names: ["b": "Bea"], me: "b")
        // then
        #expect(statistics.members.map(\.userID) == ["a", "b", "c"])
        #expect(statistics.members.map(\.count) == [1, 5, 0])
        #expect(statistics.members.map(\.points) == [1, 8, 0])
        #expect(statistics.members[1].byChore.map(\.chore) == ["Dishes", "Trash"])
        #expect(statistics.mine == statistics.members[1])
        #expect(statistics.members.map(\.label) == ["a", "Bea", "c"])
    }

    @Test func someoneWhoIsNoLongerAMemberSeesZeros() {
        let statistics = ChoreStatistics(
            from: from, to: to, members: ["a"], rows: [ChoreTally(userID: "a", chore: "Trash", count: 1, points: 1)],
            names: [:], me: "gone")
        let zeros = ChoreStatistics.Member(userID: "gone", displayName: "", count: 0, points: 0, byChore: [])
        #expect(statistics.mine == zeros)
    }

    @Test func aMemberWithoutANameIsLabelledByTheStartOfTheirID() {
        let statistics = ChoreStatistics(
            from: from, to: to, members: ["0123456789abcdef"], rows: [], names: [:], me: "x")
        #expect(statistics.members[0].label == "01234567")
    }
}

/// Who spent what, month by month, as typed values the expense answer and its chart share.
@Suite struct ExpenseReportTests {
    let march = Month(year: 2026, month: 3)
    var months: [Month] { [march, march.next] }

    func bill(
        _ month: Month, _ currency: String, payer: String, category: String = "other", _ shares: [String: Int]
    ) -> ExpenseStatistics.BillShares {
        .init(
            month: month, currency: currency, category: category, paid: [payer: shares.values.reduce(0, +)],
            amount: shares.values.reduce(0, +), shares: shares)
    }

    @Test func eachCategoryIsTotalledPerMonthAndOverAllLargestFirst() {
        let bills = [
            bill(march, "EUR", payer: "a", category: "rent", ["a": 40_000, "b": 40_000]),
            bill(march, "EUR", payer: "b", category: "groceries", ["a": 1_000, "b": 1_000]),
            bill(march.next, "EUR", payer: "a", category: "groceries", ["a": 1_500]),
            bill(march.next, "EUR", payer: "a", category: "internet", ["a": 1_500]),
            bill(march.next, "USD", payer: "a", category: "transport", ["a": 9_999_999]),
        ]
        let report = ExpenseReport(members: ["a", "b"], months: months, bills: bills, currency: nil)
        #expect(report.categories().map(\.category) == ["rent", "groceries", "internet"])
        #expect(report.categories().map(\.total) == [80_000, 3_500, 1_500])
        #expect(report.categories(in: march.next).map(\.category) == ["groceries", "internet"])
        #expect(report.categories(in: march).map(\.total) == [80_000, 2_000])
    }

    @Test func aCategoryOutsideTheListIsNamed() throws {
        #expect(try BillCategory.parse(nil) == "other")
        #expect(try BillCategory.parse("household_supplies") == "household_supplies")
        #expect(throws: HouseholdError.self) { try BillCategory.parse("Rent") }
    }

    @Test func showsTheUsualCurrencyAndKeepsOthersApart() {
        // given
        let bills = [
            bill(march, "EUR", payer: "a", ["a": 500, "b": 500]),
            bill(march.next, "EUR", payer: "b", ["a": 200, "b": 200]),
            bill(march, "USD", payer: "a", ["a": 9_000]),
        ]
        // when
        let report = ExpenseReport(members: ["a", "b"], months: months, bills: bills, currency: nil)
        // then
        #expect(report.currency == "EUR")
        #expect(report.currencies == ["EUR", "USD"])
        #expect(report.total(in: march) == 1_000)
        #expect(report.total(in: march.next) == 400)
        #expect(report.figures(of: "a", in: march) == .init(share: 500, paid: 1_000))
        #expect(report.members.map(\.share) == [700, 700])
        #expect(report.members.map(\.paid) == [1_000, 400])
        #expect((report.first, report.last) == (march, march.next))
    }

    @Test func theCurrencyAskedForWinsAndSomeoneWhoLeftIsListedAfterTheMembers() {
        let bills = [
            bill(march, "EUR", payer: "a", ["a": 500]),
            bill(march, "USD", payer: "zed", ["a": 300, "zed": 300]),
            bill(march, "USD", payer: "left", ["left": 100]),
        ]
        var report = ExpenseReport(members: ["b", "a"], months: months, bills: bills, currency: "USD")
        report.name(["a": "Ann", "zed": "Zed"])
        #expect(report.currency == "USD")
        #expect(report.members.map(\.userID) == ["b", "a", "left", "zed"])
        #expect(report.members.map(\.displayName) == ["", "Ann", "", "Zed"])
        #expect(report.figures(of: "b", in: march.next) == .init())
    }

    @Test func withoutBillsThereIsNoCurrencyAndNothingToAdd() {
        let report = ExpenseReport(members: ["a"], months: months, bills: [], currency: nil)
        #expect(report.currency == nil)
        #expect(report.tally.isEmpty)
        #expect(report.members == [ExpenseReport.Member(userID: "a", share: 0, paid: 0)])
        #expect(ExpenseStatistics.svg(report).contains("No expenses in these months"))
    }

    @Test func theChartShowsEachMonthAndEachMembersLabel() {
        var report = ExpenseReport(
            members: ["0123456789", "b"], months: months,
            bills: [bill(march, "EUR", payer: "b", ["0123456789": 250, "b": 250])], currency: nil)
        report.name(["b": "Bea <3"])
        let svg = ExpenseStatistics.svg(report)
        #expect(svg.contains(">2026-03<") && svg.contains(">2026-04<"))
        #expect(svg.contains(">01234567<") && svg.contains("Bea &lt;3"))
    }
}

/// Balances per currency, the settle-up plan and the viewer's part of it.
@Suite struct BalanceSheetTests {
    @Test func eachCurrencyHasItsPlanAndMyPartOfIt() {
        // given
        let net = ["USD": ["a": 300, "c": -300], "EUR": ["a": -500, "b": 500, "gone": 0]]
        // when
        let sheet = BalanceSheet(members: ["b", "a", "c"], net: net, me: "a")
        // then
        #expect(sheet.currencies.map(\.currency) == ["EUR", "USD"])
        let euro = sheet.currencies[0]
        #expect(euro.members.map(\.userID) == ["b", "a", "c", "gone"])
        #expect(euro.members.map(\.net) == [500, -500, 0, 0])
        #expect(euro.plan == [Transfer(from: "a", to: "b", amount: 500)])
        #expect((euro.myNet, euro.owes, euro.owed) == (-500, euro.plan, []))
        let dollar = sheet.currencies[1]
        #expect((dollar.myNet, dollar.owes, dollar.owed) == (300, [], [Transfer(from: "c", to: "a", amount: 300)]))
    }

    @Test func noBalancesNoCurrencies() {
        #expect(BalanceSheet(members: ["a"], net: [:], me: "a").currencies.isEmpty)
    }
}

/// A payment's own rules, before the store checks the payee and the amount owed.
@Suite struct PaymentDraftTests {
    @Test func aValidPaymentKeepsItsFiguresAndAnUppercaseCurrency() throws {
        let draft = try PaymentDraft(from: "a", to: "b", amount: 1_250, currency: "eur")
        #expect(draft == (try PaymentDraft(from: "a", to: "b", amount: 1_250, currency: "EUR")))
        #expect((draft.from, draft.to, draft.amount, draft.currency) == ("a", "b", 1_250, "EUR"))
    }

    @Test(arguments: [0, -1, Int.max])
    func theAmountMustBePositiveAndBounded(amount: Int) {
        #expect {
            try PaymentDraft(from: "a", to: "b", amount: amount, currency: "EUR")
        } throws: { error in
            if case HouseholdError.invalidField("amount", _) = error { true } else { false }
        }
    }

    @Test func nobodyPaysThemselves() {
        #expect(throws: HouseholdError.invalidField("to", "must be another member.")) {
            try PaymentDraft(from: "a", to: "a", amount: 100, currency: "EUR")
        }
    }

    @Test func theCurrencyIsACode() {
        #expect(throws: Problem.self) { try PaymentDraft(from: "a", to: "b", amount: 100, currency: "euro") }
    }
}

/// What a shopping trip request may hold.
@Suite struct TripLimitsTests {
    @Test func picksAreKeyedLikeTheHouseholdList() throws {
        let picks = try TripLimits.picks([("Eggs", 300), ("milk", nil)])
        #expect(picks.map(\.key) == [Groceries.mergeKey("egg"), Groceries.mergeKey("Milk")])
        #expect(picks.map(\.price) == [300, nil])
    }

    @Test func theSameItemTwiceIsRefusedWhateverItsPlural() {
        #expect(throws: HouseholdError.invalidField("items", "must name each item once.")) {
            try TripLimits.picks([("Eggs", nil), ("egg", 10)])
        }
    }

    @Test(arguments: [0, 201])
    func aTripPicksFromOneToTwoHundredItems(count: Int) {
        let items = (0..<count).map { (name: "item \($0)", price: Int?.none) }
        #expect(
            throws: HouseholdError.invalidField("items", "must pick from 1 to 200 items of the household list.")
        ) { try TripLimits.picks(items) }
        #expect(throws: HouseholdError.invalidField("items", "must list from 1 to 200 items.")) {
            try TripLimits.checkEditedItems(count: count)
        }
    }

    @Test func aPriceIsFromNothingToTheLargestAmount() throws {
        try TripLimits.checkPrice(nil)
        try TripLimits.checkPrice(0)
        try TripLimits.checkPrice(Money.maximumAmount)
        #expect(throws: HouseholdError.self) { try TripLimits.checkPrice(-1) }
        #expect(throws: HouseholdError.self) { try TripLimits.checkPrice(Money.maximumAmount + 1) }
    }
}

/// Which chores a list shows.
@Suite struct ChoreListStatusTests {
    @Test func pendingByDefaultAndOnlyTheThreeNames() throws {
        #expect(try ChoreListStatus(query: nil) == .pending)
        #expect(try ChoreListStatus(query: "done") == .done)
        #expect(throws: HouseholdError.invalidField("status", "must be pending, done or all.")) {
            try ChoreListStatus(query: "Done")
        }
    }

    @Test func eachStatusShowsItsChores() {
        #expect(ChoreListStatus.pending.shows("2026-03-01") && !ChoreListStatus.pending.shows(nil))
        #expect(ChoreListStatus.done.shows(nil) && !ChoreListStatus.done.shows("2026-03-01"))
        #expect(ChoreListStatus.all.shows(nil) && ChoreListStatus.all.shows("2026-03-01"))
    }
}
