import Foundation
import PlatformKit
import Testing

@testable import HouseholdService

/// RooMate's pure rules: the ledger's CSV, chore reminders' times and recurring bills' days.
@Suite struct RooMateRulesTests {
    @Test func theLedgerNamesEveryoneAndWritesTheHouseholdsDay() {
        // 23:30 UTC is already the next day in Berlin.
        let base = 1_795_000_000
        let late = Date(timeIntervalSince1970: Double(base - base % 86_400 + 84_600))
        let bill = BillRecord(
            id: "b", householdId: "h", description: "@cmd", amount: 1_000, currency: "JPY", payerId: "gone",
            splitKind: "equal", createdBy: "gone", idempotencyKey: nil, createdAt: late, updatedAt: late,
            category: "eating_out")
        let ledger = HouseholdLedger(
            timeZone: "Europe/Berlin", members: ["ann"],
            bills: [StoredBill(bill: bill, shares: ["ann": 500, "gone": 500])], payments: [])
        let lines = LedgerCSV.csv(ledger, names: ["ann": "-Ann"]).components(separatedBy: "\r\n")
        #expect(lines[0].hasSuffix(",id,'-Ann,gone"))
        let day = LocalDay(late + 3_600, in: .gmt).description
        #expect(lines[1].hasPrefix("\(day),bill,'@cmd,eating_out,1000,JPY,gone,,"))
        #expect(lines[1].hasSuffix(",b,500,500"))
    }

    @Test func aChoreIsRemindedOnItsDueDayFromNineUntilNineInTheEvening() throws {
        let zone = try #require(TimeZone(identifier: "Pacific/Auckland"))
        let day = try #require(LocalDay("2027-01-15"))
        let start = day.start(in: zone)
        #expect(!ChoreDueRule.isDue("2027-01-15", now: start + 9 * 3_600 - 1, zone: zone))
        #expect(ChoreDueRule.isDue("2027-01-15", now: start + 9 * 3_600, zone: zone))
        #expect(ChoreDueRule.isDue("2027-01-15", now: start + 21 * 3_600 - 1, zone: zone))
        #expect(!ChoreDueRule.isDue("2027-01-15", now: start + 21 * 3_600, zone: zone))
        #expect(!ChoreDueRule.isDue("2027-01-14", now: start + 10 * 3_600, zone: zone))
        // 10:00 in Auckland is still the day before in UTC: the scan looks at yesterday, today and tomorrow.
        #expect(ChoreDueRule.candidateDays(now: start + 10 * 3_600) == ["2027-01-13", "2027-01-14", "2027-01-15"])
    }

    @Test func aRecurringBillsDaysFollowItsSchedule() throws {
        let friday = try #require(LocalDay("2027-01-15"))
        #expect(BillSchedule.monthly(day: BillSchedule.lastDay).first(onOrAfter: friday).description == "2027-01-31")
        #expect(
            BillSchedule.monthly(day: BillSchedule.lastDay).next(after: friday.adding(days: 16)).description
                == "2027-02-28")
        #expect(BillSchedule.monthly(day: 1).first(onOrAfter: friday).description == "2027-02-01")
        #expect(BillSchedule.monthly(day: 15).first(onOrAfter: friday) == friday)
        #expect(BillSchedule.weekly(weekday: 1).first(onOrAfter: friday).description == "2027-01-18")
        #expect(BillSchedule.weekly(weekday: 5).first(onOrAfter: friday) == friday)
        #expect(BillSchedule.everyDays(10).next(after: friday).description == "2027-01-25")
    }

    @Test func afterDowntimeOnlyTheLatestMissedDayIsMade() throws {
        let first = try #require(LocalDay("2027-01-01"))
        let weekly = BillSchedule.everyDays(7)
        let (make, next) = weekly.due(nextOn: first, today: first.adding(days: 19))
        #expect(make?.description == "2027-01-15")
        #expect(next.description == "2027-01-22")
        #expect(weekly.due(nextOn: first, today: first).make == first)
        #expect(weekly.due(nextOn: first, today: first.adding(days: -1)).make == nil)
    }
}
