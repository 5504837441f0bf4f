import Foundation
import PlatformKit
import Testing

@testable import HouseholdService

@Suite struct ChoreScheduleTests {
    let monday = LocalDay(year: 2026, month: 11, day: 23)!

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
            afterDue: try #require(LocalDay(due)), completedOn: try #require(LocalDay(completed)))
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
