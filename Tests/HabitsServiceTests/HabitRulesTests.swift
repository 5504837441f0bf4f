import Foundation
import PlatformKit
import Testing

@testable import HabitsService

/// The rules of measurable habits, skips and pauses, reminders, the manual order and the CSV export.
@Suite struct HabitRulesTests {
    func day(_ text: String) -> LocalDay { LocalDay(text)! }

    func instant(_ text: String) throws -> Date { try #require(ISO8601DateFormatter().date(from: text)) }

    @Test func amountsAreExactThousandthsAndBounded() throws {
        #expect(try Amounts.thousandths(2.5, field: "target", positive: true) == 2_500)
        #expect(try Amounts.thousandths(0.1 + 0.2, field: "value", positive: false) == 300)
        #expect(try Amounts.thousandths(0, field: "value", positive: false) == 0)
        #expect(throws: HabitsError.invalidField("target", "must be at least 0.001.")) {
            try Amounts.thousandths(0.0001, field: "target", positive: true)
        }
        for bad in [-1, 1_000_000.5, .infinity, .nan] {
            #expect(throws: HabitsError.invalidField("value", "must be a number from 0 to 1000000.")) {
                try Amounts.thousandths(bad, field: "value", positive: false)
            }
        }
        #expect([2_500, 20_000, 125, 0].map(Amounts.text) == ["2.5", "20", "0.125", "0"])
    }

    @Test func aMeasurableDayIsDoneOnceItsValueMeetsTheTarget() {
        let measurable = DoneRule(target: 2_000)
        #expect(!measurable.isDone(value: 1_999))
        #expect(measurable.isDone(value: 2_000))
        #expect(!measurable.isDone(value: nil))
        #expect(DoneRule(target: nil).isDone(value: nil))
    }

    @Test func anEventsValueIsRequiredForAMeasurableHabitAndRefusedForAYesNoOne() {
        #expect(throws: HabitsError.invalidField("value", "is required for a measurable habit.")) {
            try EventRules.checkValue(nil, target: 1)
        }
        #expect(throws: HabitsError.invalidField("value", "only a measurable habit (one with a target) takes a value."))
        {
            try EventRules.checkValue(5, target: nil)
        }
    }

    /// Done on the 1st, 2nd, 4th, 5th of January; the 3rd skipped: the streak runs on through it, and the strength is
    /// the same as for four done days in a row.
    @Test func aSkippedOrPausedDayNeitherBreaksAStreakNorMovesTheStrength() {
        let done = DaySet(["2027-01-01", "2027-01-02", "2027-01-04", "2027-01-05"].map(day))
        let today = day("2027-01-06")
        let plain = HabitProgress(weekdays: Weekdays(bits: 0x7F), start: day("2027-01-01"), today: today, done: done)
        let skipped = HabitProgress(
            weekdays: Weekdays(bits: 0x7F), start: day("2027-01-01"), today: today, done: done,
            excused: Excuses.days(skips: [day("2027-01-03")], pauses: []))
        let paused = HabitProgress(
            weekdays: Weekdays(bits: 0x7F), start: day("2027-01-01"), today: today, done: done,
            excused: Excuses.days(skips: [], pauses: [(day("2027-01-03"), day("2027-01-03"))]))
        let fourInARow = HabitProgress(
            weekdays: Weekdays(bits: 0x7F), start: day("2027-01-01"), today: day("2027-01-05"),
            done: DaySet((1...4).map { day("2027-01-0\($0)") }))
        #expect(plain.summary(from: day("2027-01-01"), to: today).currentStreak == 2)
        for progress in [skipped, paused] {
            let summary = progress.summary(from: day("2027-01-01"), to: today)
            #expect(summary.currentStreak == 4)
            #expect(summary.dueDays == 4 && summary.completionRate == 1)
            #expect(summary.excusedDueDays == 1)
            #expect(abs(summary.strength - fourInARow.summary(from: day("2027-01-01"), to: today).strength) < 1e-12)
        }
    }

    @Test func pausesAndSkipsAreBounded() throws {
        let today = day("2027-01-15")
        try Excuses.checkPause(from: day("2027-01-01"), to: day("2027-12-31"), today: today)
        #expect(throws: HabitsError.invalidField("to", "a pause may cover at most 366 days.")) {
            try Excuses.checkPause(from: day("2027-01-01"), to: day("2028-01-02"), today: today)
        }
        #expect(throws: HabitsError.invalidField("to", "must not be before from.")) {
            try Excuses.checkPause(from: day("2027-01-02"), to: day("2027-01-01"), today: today)
        }
        #expect(throws: HabitsError.invalidField("date", "must be from 2000-01-01 to a year from today.")) {
            try Excuses.checkSkip(day("1999-12-31"), today: today)
        }
        #expect(Excuses.days(skips: [], pauses: [(day("2027-01-01"), day("2027-01-10"))]).count == 10)
    }

    @Test func aReminderTimeIsHHMM() throws {
        #expect(try ReminderRules.minute("07:30") == 450)
        #expect(try ReminderRules.minute("23:59") == 1_439)
        for bad in ["24:00", "7:30", "07:60", "0730", "07:3a", "", "+7:30"] {
            #expect(throws: HabitsError.self) { try ReminderRules.minute(bad) }
        }
        #expect(ReminderRules.text(450) == "07:30")
    }

    /// 08:00 in Paris is 07:00 UTC in winter and 06:00 UTC after the clocks went forward (2027-03-28); in Auckland
    /// (UTC+13 in January) 08:00 on the 16th is 19:00 UTC on the 15th.
    @Test func aReminderIsDueAtItsLocalTimeAcrossADaylightSavingChange() throws {
        let paris = "Europe/Paris"
        #expect(
            ReminderRules.dueDay(now: try instant("2027-03-27T07:00:00Z"), minute: 480, zoneName: paris)
                == day("2027-03-27"))
        #expect(ReminderRules.dueDay(now: try instant("2027-03-28T05:59:00Z"), minute: 480, zoneName: paris) == nil)
        #expect(
            ReminderRules.dueDay(now: try instant("2027-03-28T06:00:00Z"), minute: 480, zoneName: paris)
                == day("2027-03-28"))
        #expect(
            ReminderRules.dueDay(now: try instant("2027-01-15T19:05:00Z"), minute: 480, zoneName: "Pacific/Auckland")
                == day("2027-01-16"))
        // more than an hour late: dropped
        #expect(ReminderRules.dueDay(now: try instant("2027-03-28T07:00:00Z"), minute: 480, zoneName: paris) == nil)
        // 23:30 reminded at 00:10 the next day: still yesterday's
        #expect(
            ReminderRules.dueDay(now: try instant("2027-01-16T00:10:00Z"), minute: 1_410, zoneName: "UTC")
                == day("2027-01-15"))
    }

    @Test func aReminderIsQuietWhenTheDayIsDoneSkippedOrPaused() {
        #expect(ReminderRules.remind(doneValue: nil, rule: DoneRule(target: nil), excused: false))
        #expect(!ReminderRules.remind(doneValue: 0, rule: DoneRule(target: nil), excused: false))
        #expect(ReminderRules.remind(doneValue: 1_000, rule: DoneRule(target: 2_000), excused: false))
        #expect(!ReminderRules.remind(doneValue: 2_000, rule: DoneRule(target: 2_000), excused: false))
        #expect(!ReminderRules.remind(doneValue: nil, rule: DoneRule(target: nil), excused: true))
    }

    @Test func aManualOrderPutsTheNamedFirstAndKeepsTheRest() throws {
        #expect(try HabitOrder.arrange(current: ["a", "b", "c", "d"], requested: ["c", "a"]) == ["c", "a", "b", "d"])
        #expect(throws: HabitsError.invalidField("ids", "must not name a habit twice.")) {
            try HabitOrder.arrange(current: ["a", "b"], requested: ["a", "a"])
        }
        #expect(throws: HabitsError.notFound("The habit")) {
            try HabitOrder.arrange(current: ["a"], requested: ["someone-elses"])
        }
    }

    @Test func csvQuotesAsRFC4180AndDisarmsFormulas() {
        #expect(CSV.text("plain") == "plain")
        #expect(CSV.text("a, \"b\"\nc") == "\"a, \"\"b\"\"\nc\"")
        #expect(CSV.text("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(["+1", "-1", "@SUM(A1)"].map(CSV.text) == ["'+1", "'-1", "'@SUM(A1)"])
        #expect(CSV.quoted("-33.5") == "-33.5")
        #expect(CSV.line(["a", "b"]) == "a,b\r\n")
    }
}
