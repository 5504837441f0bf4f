import Foundation
import PlatformKit
import TestSupport
import Testing

@testable import HouseholdService

/// Household events on both engines: the lists' order and pages, answers, the creator's rights, and reminders claimed
/// once (on PostgreSQL, by claims on two replicas at once).
@Suite struct EventStoreTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000.123)

    func draft(_ title: String, in hours: Double, lasting: Double? = nil, remind: Int = 60) -> EventRules.Draft {
        let start = now.addingTimeInterval(hours * 3_600)
        return EventRules.Draft(
            title: title, note: nil, place: nil, start: start,
            end: lasting.map { start.addingTimeInterval($0 * 3_600) },
            remindMinutesBefore: remind)
    }

    @Test(arguments: StoreKind.allCases)
    func upcomingEventsComeSoonestFirstAndPastOnesLatestFirstAPageAtATime(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob"], now: now, timeZone: "Europe/Paris")
            for (id, title, hours, lasting) in [
                ("e1", "Party", 48.0, nil), ("e2", "Meeting", 2, nil), ("e3", "Landlord", -30, nil),
                ("e4", "Brunch", -2, 3.0), ("e5", "Movie", -50, 2), ("e6", "Quiz", 2, nil),
            ] as [(String, String, Double, Double?)] {
                _ = try await store.createEvent(
                    draft(title, in: hours, lasting: lasting), id: id, in: "h", by: "ann", now: now)
            }
            let upcoming = try await store.events(
                of: "h", asMember: "bob", past: false, now: now, after: nil, limit: 2)
            // the brunch began two hours ago and is still on; two events at one start keep their id order
            #expect(upcoming.map(\.event.id) == ["e4", "e2"])
            let last = try #require(upcoming.last?.event)
            let next = try await store.events(
                of: "h", asMember: "bob", past: false, now: now, after: (last.startsAt, last.id), limit: 10)
            #expect(next.map(\.event.id) == ["e6", "e1"])
            let past = try await store.events(of: "h", asMember: "bob", past: true, now: now, after: nil, limit: 1)
            #expect(past.map(\.event.id) == ["e3"])
            let older = try await store.events(
                of: "h", asMember: "bob", past: true, now: now, after: (past[0].event.startsAt, "e3"), limit: 10)
            #expect(older.map(\.event.id) == ["e5"])
            #expect(upcoming[0].timeZone == "Europe/Paris" && upcoming[0].answers == ["ann": .yes])
            await #expect(throws: HouseholdError.notFound("The household")) {
                try await store.events(of: "h", asMember: "cat", past: false, now: now, after: nil, limit: 10)
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func membersAnswerAndOnlyTheCreatorEditsOrCancels(kind: StoreKind) async throws {
        try await withHouseholdStores(kind) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob", "cat"], now: now)
            _ = try await store.createEvent(draft("Meeting", in: 24), id: "e", in: "h", by: "ann", now: now)
            _ = try await store.answer("e", in: "h", by: "bob", .maybe, now: now)
            let answered = try await store.answer("e", in: "h", by: "bob", .no, now: now)
            #expect(answered.answers == ["ann": .yes, "bob": .no])
            await #expect(throws: HouseholdError.notEventCreator(action: "edit it")) {
                try await store.editEvent("e", in: "h", by: "bob", .init(title: "Mine"), now: now)
            }
            await #expect(throws: HouseholdError.notEventCreator(action: "cancel it")) {
                try await store.cancelEvent("e", in: "h", by: "bob", now: now)
            }
            let edited = try await store.editEvent(
                "e", in: "h", by: "ann", .init(title: "House meeting", place: .some("Kitchen")), now: now)
            #expect(edited.event.title == "House meeting" && edited.event.place == "Kitchen")
            let read = try await store.event("e", in: "h", asMember: "cat")
            #expect(read.event.title == "House meeting" && read.event.place == "Kitchen")
            #expect(read.answers == ["ann": .yes, "bob": .no])
            let (cancelled, members) = try await store.cancelEvent("e", in: "h", by: "ann", now: now)
            #expect(cancelled.event.cancelledAt != nil && members == ["ann", "bob", "cat"])
            await #expect(throws: HouseholdError.eventCancelled) {
                try await store.answer("e", in: "h", by: "cat", .yes, now: now)
            }
            await #expect(throws: HouseholdError.eventCancelled) {
                try await store.editEvent("e", in: "h", by: "ann", .init(title: "Again"), now: now)
            }
            // a cancelled event stays listed, marked
            let listed = try await store.events(of: "h", asMember: "bob", past: false, now: now, after: nil, limit: 5)
            #expect(listed.map(\.event.id) == ["e"] && listed[0].event.cancelledAt != nil)
            await #expect(throws: HouseholdError.notFound("The event")) {
                try await store.event("nope", in: "h", asMember: "ann")
            }
            let activity = try await store.activity(of: "h", asMember: "bob").prefix(3).map(\.kind)
            #expect(activity == ["event_cancelled", "event_updated", "event_created"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aReminderIsClaimedOnceAMovedStartRearmsItAndACancelledEventHasNone(kind: StoreKind) async throws {
        try await withHouseholdStores(kind, replicas: 2) { stores in
            let store = stores[0]
            try await makeHousehold(store, ["ann", "bob", "cat"], now: now)
            _ = try await store.createEvent(draft("Meeting", in: 3), id: "e", in: "h", by: "ann", now: now)
            _ = try await store.createEvent(draft("Party", in: 3), id: "off", in: "h", by: "ann", now: now)
            _ = try await store.answer("e", in: "h", by: "bob", .no, now: now)
            _ = try await store.cancelEvent("off", in: "h", by: "ann", now: now)
            // not yet: the reminder is due an hour before the start
            #expect(try await store.claimEventReminders(now: now.addingTimeInterval(3_600), limit: 10).isEmpty)
            // two replicas claim at once: one of them gets it
            let due = now.addingTimeInterval(2.5 * 3_600)
            async let first = stores[0].claimEventReminders(now: due, limit: 10)
            async let second = stores[1].claimEventReminders(now: due, limit: 10)
            let claims = try await first + second
            #expect(claims.map(\.event.id) == ["e"])
            #expect(claims.first?.recipients == ["ann", "cat"], "bob answered no")
            #expect(try await store.claimEventReminders(now: due, limit: 10).isEmpty)
            // the start moves a day on: a new reminder, due a day later
            _ = try await store.editEvent(
                "e", in: "h", by: "ann", .init(start: now.addingTimeInterval(27 * 3_600)), now: due)
            #expect(try await store.claimEventReminders(now: due, limit: 10).isEmpty)
            let moved = try await store.claimEventReminders(now: now.addingTimeInterval(26.5 * 3_600), limit: 10)
            #expect(moved.map(\.event.id) == ["e"])
        }
    }
}
