import Foundation
import PlatformKit
import Testing

@testable import HouseholdService

/// The pure rules of household events: reading times, showing them on the household's clock, edits and reminders.
@Suite struct EventRulesTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00:00 UTC

    func event(remindedAt: Date? = nil, cancelledAt: Date? = nil) -> EventRecord {
        EventRecord(
            id: "e", householdId: "h", creatorId: "ann", title: "House meeting", note: nil, place: nil,
            startsAt: start, endsAt: nil, finishesAt: start, remindMinutesBefore: 60,
            remindAt: start.addingTimeInterval(-3_600), remindedAt: remindedAt, cancelledAt: cancelledAt,
            createdAt: start.addingTimeInterval(-86_400), updatedAt: start.addingTimeInterval(-86_400))
    }

    @Test(arguments: [
        ("2027-01-15T08:00:00Z", 1_800_000_000.0),
        ("2027-01-15T09:00:00+01:00", 1_800_000_000),
        ("2027-01-15t02:30:00-05:30", 1_800_000_000),
        ("2027-01-15T08:00:00.5z", 1_800_000_000.5),
        ("2027-01-15T08:00:00.123456Z", 1_800_000_000.123),
        ("2024-02-29T23:59:59+00:00", 1_709_251_199),
    ])
    func anRFC3339DateTimeWithAnOffsetIsRead(text: String, seconds: Double) throws {
        let instant = try #require(RFC3339.instant(text))
        #expect(abs(instant.timeIntervalSince1970 - seconds) < 0.000_5)
    }

    @Test(arguments: [
        "2027-01-15T08:00:00", "2027-01-15T08:00Z", "2027-01-15 08:00:00Z", "2027-02-30T08:00:00Z",
        "2027-01-15T24:00:00Z", "2027-01-15T08:60:00Z", "2027-01-15T08:00:00+1:00", "2027-01-15T08:00:00.Z",
        "2027-01-15T08:00:00Z ", "", "tomorrow", "2027-01-15T08:00:00+24:00",
    ])
    func anythingElseIsNotADateTime(text: String) {
        #expect(RFC3339.instant(text) == nil)
    }

    @Test func aTimeOutsideTheYearsOrWithoutAnOffsetNamesTheField() {
        #expect(throws: HouseholdError.invalidField("start", "must be in the years 2000 to 2100.")) {
            try EventRules.instant("2101-01-01T00:00:00Z", field: "start")
        }
        #expect(throws: HouseholdError.invalidField("end", "must be in the years 2000 to 2100.")) {
            try EventRules.instant("1999-12-31T23:59:59Z", field: "end")
        }
        #expect(
            throws: HouseholdError.invalidField(
                "end", "must be a date-time with an offset, such as 2026-12-05T19:00:00+01:00.")
        ) { try EventRules.instant("2027-01-15T08:00", field: "end") }
    }

    @Test func theLocalTimeIsOnTheHouseholdsClockAcrossDaylightSaving() {
        // 2027-03-28 01:00 UTC is the moment Paris moves from +01:00 to +02:00
        let before = Date(timeIntervalSince1970: 1_806_195_600 - 60)
        let after = Date(timeIntervalSince1970: 1_806_195_600)
        #expect(EventRules.localTime(before, timeZone: "Europe/Paris") == "2027-03-28T01:59")
        #expect(EventRules.localTime(after, timeZone: "Europe/Paris") == "2027-03-28T03:00")
        #expect(EventRules.localTime(start, timeZone: "America/New_York") == "2027-01-15T03:00")
        #expect(EventRules.localTime(start, timeZone: "Not/AZone") == "2027-01-15T08:00")
    }

    @Test func aMovedStartRearmsTheReminderAndALeadAloneDoesNot() throws {
        let now = start.addingTimeInterval(-600)
        var moved = event(remindedAt: now)
        try EventRules.apply(.init(start: start.addingTimeInterval(86_400)), to: &moved, now: now)
        #expect(moved.remindedAt == nil)
        #expect(moved.remindAt == start.addingTimeInterval(86_400 - 3_600))
        #expect(moved.finishesAt == moved.startsAt && moved.updatedAt == now)

        var same = event(remindedAt: now)
        try EventRules.apply(.init(start: Date(timeIntervalSince1970: 1_800_000_000.000_1)), to: &same, now: now)
        #expect(same.remindedAt == now, "the same start, to the millisecond, is no move")

        var lead = event(remindedAt: now)
        try EventRules.apply(.init(remindMinutesBefore: 15), to: &lead, now: now)
        #expect(lead.remindedAt == now && lead.remindAt == start.addingTimeInterval(-900))
    }

    @Test func anEditKeepsTheEndAfterTheStartAndClearsWhatIsCleared() throws {
        var withEnd = event()
        try EventRules.apply(.init(end: .some(start.addingTimeInterval(7_200))), to: &withEnd, now: start)
        #expect(withEnd.finishesAt == start.addingTimeInterval(7_200))
        #expect(throws: HouseholdError.invalidField("end", "must not be before start.")) {
            var copy = withEnd
            try EventRules.apply(.init(start: start.addingTimeInterval(7_201)), to: &copy, now: start)
        }
        try EventRules.apply(.init(note: .some("Bring snacks"), end: .some(nil)), to: &withEnd, now: start)
        #expect(withEnd.endsAt == nil && withEnd.finishesAt == start && withEnd.note == "Bring snacks")
        try EventRules.apply(.init(note: .some(nil)), to: &withEnd, now: start)
        #expect(withEnd.note == nil)
    }

    @Test func aReminderIsDueOnceFromItsTimeUntilTheStartUnlessCancelled() {
        #expect(!EventRules.reminderDue(event(), now: start.addingTimeInterval(-3_601)))
        #expect(EventRules.reminderDue(event(), now: start.addingTimeInterval(-3_600)))
        #expect(EventRules.reminderDue(event(), now: start.addingTimeInterval(-1)))
        #expect(!EventRules.reminderDue(event(), now: start), "a reminder after the start helps nobody")
        #expect(!EventRules.reminderDue(event(remindedAt: start), now: start.addingTimeInterval(-60)))
        #expect(!EventRules.reminderDue(event(cancelledAt: start), now: start.addingTimeInterval(-60)))
    }

    @Test func everyoneWhoDidNotAnswerNoIsReminded() {
        let answers: [String: EventRules.Answer] = ["ann": .yes, "bob": .no, "cat": .maybe]
        #expect(EventRules.reminded(members: ["ann", "bob", "cat", "dan"], answers: answers) == ["ann", "cat", "dan"])
    }

    @Test func theLeadAndTheAnswerAreBounded() throws {
        #expect(try EventRules.remindMinutes(nil) == 60)
        #expect(try EventRules.remindMinutes(0) == 0 && EventRules.remindMinutes(10_080) == 10_080)
        #expect(throws: HouseholdError.invalidField("remindMinutesBefore", "must be from 0 to 10080.")) {
            try EventRules.remindMinutes(Int.max)
        }
        #expect(throws: HouseholdError.invalidField("answer", "must be yes, no or maybe.")) {
            try EventRules.Answer(client: "YES")
        }
    }
}
