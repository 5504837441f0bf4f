import Foundation
import Testing

@testable import HouseholdService

@Suite struct LocalDateTests {
    @Test func parsesOnlyRealDays() {
        #expect(LocalDate("2024-02-29") == LocalDate(year: 2024, month: 2, day: 29))
        #expect(LocalDate("2023-02-29") == nil)
        #expect(LocalDate("2024-13-01") == nil)
        #expect(LocalDate("24-01-01") == nil)
        #expect(LocalDate("yesterday") == nil)
    }

    @Test func theDayDependsOnTheTimeZone() throws {
        // 2026-03-01 10:30 UTC is still 28 February in Honolulu and already 2 March... no: 1 March 23:30 in Auckland.
        let instant = Date(timeIntervalSince1970: 1_772_361_000)
        #expect(LocalDate(instant, in: try #require(TimeZone(identifier: "UTC"))).description == "2026-03-01")
        #expect(
            LocalDate(instant, in: try #require(TimeZone(identifier: "Pacific/Honolulu"))).description == "2026-03-01")
        #expect(
            LocalDate(instant, in: try #require(TimeZone(identifier: "Pacific/Auckland"))).description == "2026-03-01")
        #expect(
            LocalDate(
                instant.addingTimeInterval(-11 * 3600), in: try #require(TimeZone(identifier: "Pacific/Honolulu"))
            ).description == "2026-02-28")
    }

    @Test func arithmeticCrossesMonthsAndLeapDays() {
        let date = LocalDate(year: 2024, month: 2, day: 28)
        #expect(date.adding(days: 1).description == "2024-02-29")
        #expect(date.adding(days: 2).description == "2024-03-01")
        #expect(LocalDate(year: 2024, month: 1, day: 31).inMonth(offset: 1, day: 31).description == "2024-02-29")
        #expect(LocalDate(year: 2024, month: 12, day: 15).inMonth(offset: 1, day: 15).description == "2025-01-15")
        #expect(LocalDate(year: 2026, month: 11, day: 23).isoWeekday == 1)
    }
}

@Suite struct ChoreScheduleTests {
    let monday = LocalDate(year: 2026, month: 11, day: 23)

    @Test(arguments: [
        // (schedule, due, completed, expected next)
        (ChoreSchedule.everyDays(3), "2026-11-23", "2026-11-23", "2026-11-26"),
        (.everyDays(3), "2026-11-23", "2026-11-21", "2026-11-26"),  // early: the rhythm holds
        (.everyDays(3), "2026-11-23", "2026-11-25", "2026-11-28"),  // late: from the completion
        (.weekly([1, 4]), "2026-11-23", "2026-11-23", "2026-11-26"),
        (.weekly([1, 4]), "2026-11-26", "2026-11-26", "2026-11-30"),
        (.weekly([1]), "2026-11-23", "2026-11-25", "2026-11-30"),
        (.monthly(day: 31), "2026-01-31", "2026-01-31", "2026-02-28"),
        (.monthly(day: 15), "2026-11-15", "2026-11-20", "2026-12-15"),
    ])
    func nextDue(schedule: ChoreSchedule, due: String, completed: String, expected: String) throws {
        let next = schedule.nextDue(
            afterDue: try #require(LocalDate(due)), completedOn: try #require(LocalDate(completed)))
        #expect(next?.description == expected)
    }

    @Test func aOneOffChoreHasNoNextOccurrence() {
        #expect(ChoreSchedule.once.nextDue(afterDue: monday, completedOn: monday) == nil)
    }

    @Test func theFirstDueDayIsTheFirstScheduledOne() {
        #expect(ChoreSchedule.weekly([5]).firstDue(onOrAfter: monday).description == "2026-11-27")
        #expect(ChoreSchedule.monthly(day: 1).firstDue(onOrAfter: monday).description == "2026-12-01")
        #expect(ChoreSchedule.monthly(day: 23).firstDue(onOrAfter: monday).description == "2026-11-23")
        #expect(ChoreSchedule.everyDays(2).firstDue(onOrAfter: monday) == monday)
    }

    @Test(
        arguments: [
            ("everyDays", 0, nil, nil), ("everyDays", 366, nil, nil), ("weekly", nil, [], nil),
            ("weekly", nil, [0], nil),
            ("weekly", nil, [8], nil), ("monthly", nil, nil, 0), ("monthly", nil, nil, 32), ("hourly", nil, nil, nil),
        ] as [(String, Int?, [Int]?, Int?)])
    func badSchedulesAreRefused(kind: String, every: Int?, weekdays: [Int]?, day: Int?) {
        #expect(throws: (any Error).self) {
            try ChoreSchedule.make(kind: kind, every: every, weekdays: weekdays, dayOfMonth: day)
        }
    }
}

@Suite struct ChoreAssignmentTests {
    let members = ["ann", "bob", "cat"]

    @Test func rotationFollowsTheStoredOrderAndWrapsAround() {
        let rotation = ChoreAssignment.rotating(["cat", "ann", "bob"])
        #expect(rotation.next(members: members, current: "cat", recentPoints: [:]) == "ann")
        #expect(rotation.next(members: members, current: "bob", recentPoints: [:]) == "cat")
        #expect(rotation.next(members: members, current: nil, recentPoints: [:]) == "cat")
    }

    @Test func rotationSurvivesMembersLeavingAndJoining() {
        let rotation = ChoreAssignment.rotating(["cat", "ann", "bob"])
        // ann left, dan joined: the turn order is cat, bob, dan
        #expect(
            ChoreAssignment.turnOrder(["cat", "ann", "bob"], members: ["bob", "cat", "dan"]) == ["cat", "bob", "dan"])
        #expect(rotation.next(members: ["bob", "cat", "dan"], current: "bob", recentPoints: [:]) == "dan")
        #expect(rotation.next(members: ["bob", "cat", "dan"], current: "ann", recentPoints: [:]) == "cat")
    }

    @Test func leastPointsBalancesEffortAndBreaksTiesByJoiningOrder() {
        #expect(
            ChoreAssignment.leastPoints.next(
                members: members, current: "ann", recentPoints: ["ann": 5, "bob": 9, "cat": 2]) == "cat")
        #expect(
            ChoreAssignment.leastPoints.next(
                members: members, current: nil, recentPoints: ["ann": 3, "bob": 3, "cat": 3]) == "ann")
    }

    @Test func aFixedMemberWhoLeftFallsBackToTheFirstMember() {
        #expect(ChoreAssignment.fixed("bob").next(members: members, current: nil, recentPoints: [:]) == "bob")
        #expect(ChoreAssignment.fixed("zed").next(members: members, current: nil, recentPoints: [:]) == "ann")
    }

    @Test func assignmentsNamingNonMembersAreRefused() {
        #expect(throws: (any Error).self) {
            try ChoreAssignment.make(kind: "fixed", assignee: "zed", order: nil, members: members)
        }
        #expect(throws: (any Error).self) {
            try ChoreAssignment.make(kind: "rotating", assignee: nil, order: ["ann", "ann"], members: members)
        }
        #expect(throws: (any Error).self) {
            try ChoreAssignment.make(kind: "random", assignee: nil, order: nil, members: members)
        }
    }
}
