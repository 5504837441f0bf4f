import Foundation
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import HabitsService

/// Measurable habits, skips and pauses, archive, order, export and the reminders' claim, on both engines.
@Suite struct HabitsFeatureStoreTests {
    /// 2027-01-15 08:00 UTC.
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var clock: WallClock {
        let now = now
        return WallClock { now }
    }

    func habit(_ id: String, owner: String = "u1", target: Int64? = nil, reminder: Int? = nil) -> HabitRecord {
        HabitRecord(
            id: id, userId: owner, title: "T \(id)", reason: "", weekdays: 0x7F, startDate: "2027-01-01",
            createdAt: now, updatedAt: now, targetMilli: target, unit: target == nil ? nil : "l",
            reminderMinute: reminder)
    }

    func event(_ habit: String, _ day: String, value: Int64? = nil, owner: String = "u1") -> NewEvent {
        NewEvent(
            habitID: habit, userID: owner, day: LocalDay(day), comment: nil, latitude: nil, longitude: nil,
            photo: .keep, idempotencyKey: nil, value: value)
    }

    @Test(arguments: StoreKind.allCases)
    func aMeasurableDayCountsOnceItsValueMeetsTheTarget(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let store = stores[0]
            try await store.createHabit(habit("water", target: 2_000))
            _ = try await store.createEvent(event("water", "2027-01-10", value: 2_000), clock: clock)
            let (low, _) = try await store.createEvent(event("water", "2027-01-11", value: 1_500), clock: clock)
            await #expect(throws: HabitsError.invalidField("value", "is required for a measurable habit.")) {
                _ = try await store.createEvent(event("water", "2027-01-12"), clock: clock)
            }
            #expect(try await store.eventDays(of: "water", owner: "u1").done.days.map(\.description) == ["2027-01-10"])
            let raised = try await store.updateEvent(low.id, owner: "u1", now: now, photo: .keep) {
                $0.valueMilli = 2_500
            }
            #expect(raised.valueMilli == 2_500)
            #expect(try await store.eventDays(of: "water", owner: "u1").done.count == 2)
            // a yes/no habit takes no value
            try await store.createHabit(habit("run"))
            await #expect(throws: HabitsError.self) {
                _ = try await store.createEvent(event("run", "2027-01-10", value: 1), clock: clock)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func skipsAndPausesAreTheOwnersAndExcuseTheirDays(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let store = stores[0]
            try await store.createHabit(habit("h"))
            try await store.setSkip("h", owner: "u1", day: LocalDay("2027-01-03")!, skipped: true)
            try await store.setSkip("h", owner: "u1", day: LocalDay("2027-01-03")!, skipped: true)
            let pause = try await store.addPause(
                PauseRecord(id: 0, habitId: "h", from: "2027-01-05", to: "2027-01-07"), owner: "u1")
            #expect(try await store.skips(of: "h", owner: "u1").map(\.description) == ["2027-01-03"])
            #expect(try await store.pauses(of: "h", owner: "u1") == [pause])
            #expect(try await store.eventDays(of: "h", owner: "u1").excused.count == 4)
            // another user: not found, and nothing changed
            await #expect(throws: HabitsError.notFound("The habit")) {
                try await store.setSkip("h", owner: "u2", day: LocalDay("2027-01-04")!, skipped: true)
            }
            await #expect(throws: HabitsError.notFound("The habit")) {
                try await store.deletePause(pause.id, of: "h", owner: "u2")
            }
            try await store.deletePause(pause.id, of: "h", owner: "u1")
            try await store.setSkip("h", owner: "u1", day: LocalDay("2027-01-03")!, skipped: false)
            #expect(try await store.eventDays(of: "h", owner: "u1").excused.count == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theManualOrderAndArchiveShapeTheLists(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let store = stores[0]
            for id in ["a", "b", "c"] { try await store.createHabit(habit(id)) }
            try await store.createHabit(habit("x", owner: "u2"))
            try await store.setOrder(of: "u1", ids: ["c", "a"], now: now)
            let today = LocalDay(now, in: .gmt)
            #expect(
                try await store.habitsWithStatus(of: ["u1"], todays: ["u1": today]).map(\.habit.id) == ["c", "a", "b"])
            await #expect(throws: HabitsError.notFound("The habit")) {
                try await store.setOrder(of: "u1", ids: ["x"], now: now)
            }
            _ = try await store.updateHabit("a", owner: "u1", now: now) { $0.archivedAt = now }
            #expect(try await store.todayList(of: "u1", clock: clock).map(\.habit.id) == ["c", "b"])
            #expect(try await store.habitsWithStatus(of: ["u1"], todays: ["u1": today]).count == 3)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theExportIsTheOwnersEventsOldestFirst(kind: StoreKind) async throws {
        try await withHabitsStores(kind) { stores in
            let store = stores[0]
            try await store.createHabit(habit("water", target: 2_000))
            try await store.createHabit(habit("other", owner: "u2"))
            _ = try await store.createEvent(event("water", "2027-01-11", value: 2_500), clock: clock)
            _ = try await store.createEvent(event("water", "2027-01-10", value: 1_000), clock: clock)
            _ = try await store.createEvent(event("other", "2027-01-10", owner: "u2"), clock: clock)
            let rows = try await store.exportEvents(of: "u1", habitID: nil)
            #expect(rows.map(\.day) == ["2027-01-10", "2027-01-11"])
            #expect(rows.map(\.valueMilli) == [1_000, 2_500])
            await #expect(throws: HabitsError.notFound("The habit")) {
                _ = try await store.exportEvents(of: "u2", habitID: "water")
            }
        }
    }

    /// 08:00 UTC reminders at 08:00: claimed once, even by two replicas at once; quiet when done, skipped or archived.
    @Test(arguments: StoreKind.allCases)
    func aReminderIsClaimedOnceAndQuietWhenDone(kind: StoreKind) async throws {
        try await withHabitsStores(kind, replicas: 2) { stores in
            for id in ["due", "done", "skipped", "archived", "later"] {
                try await stores[0].createHabit(habit(id, reminder: id == "later" ? 9 * 60 : 8 * 60))
            }
            _ = try await stores[0].createEvent(event("done", "2027-01-15"), clock: clock)
            try await stores[0].setSkip("skipped", owner: "u1", day: LocalDay("2027-01-15")!, skipped: true)
            _ = try await stores[0].updateHabit("archived", owner: "u1", now: now) { $0.archivedAt = now }
            let at = now.addingTimeInterval(60)
            let claims = try await withThrowingTaskGroup(of: [String].self) { group in
                for index in 0..<4 {
                    group.addTask { try await stores[index % 2].claimReminders(now: at).map(\.habit.id) }
                }
                return try await group.reduce(into: [String]()) { $0 += $1 }
            }
            #expect(claims == ["due"])
            // after a restart (a new claim), nothing again; an hour and a half later, too late for 08:00
            #expect(try await stores[1].claimReminders(now: at).isEmpty)
            #expect(try await stores[0].claimReminders(now: now.addingTimeInterval(3_600)).map(\.habit.id) == ["later"])
        }
    }
}
