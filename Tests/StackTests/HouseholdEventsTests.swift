import Foundation
import HouseholdService
import NotificationsService
import PlatformKit
import ServiceKit
import TestSupport
import Testing

/// Household events through the gateway (issue 47): a calendar the members answer, edited and cancelled by its
/// creator, followed live, in the activity feed, and reminded once through the notifications inbox.
@Suite struct HouseholdEventsTests {
    /// An event as the routes answer it (the fields these tests read).
    struct WireEvent: Decodable, Sendable {
        struct RSVP: Decodable, Equatable, Sendable {
            var userId: String
            var answer: String
        }
        var id: String
        var title: String
        var start: Date
        var localStart: String
        var status: String
        var rsvps: [RSVP]
    }

    /// Every notice and live event recorded, and passed on to the notifications service (the inbox).
    final class RecordedAndDelivered: NoticeSink {
        let recorded = RecordedNotices()
        let inbox = LateNoticeSink()
        func publish(_ notice: Notice) async {
            await recorded.publish(notice)
            await inbox.publish(notice)
        }
        func publish(_ event: RealtimeEvent) async {
            await recorded.publish(event)
            await inbox.publish(event)
        }
    }

    /// A household world whose notices also reach the notifications service, and dan, who is in no household.
    static func run(_ body: (HouseholdWorld, TestUser) async throws -> Void) async throws {
        let sink = RecordedAndDelivered()
        let jobs = HouseholdWorld.BuiltJobs()
        try await withTestStack(services: [
            .household: { settings in
                try await buildHouseholdApplication(
                    HouseholdConfiguration(
                        settings: settings, noticeSink: sink, socialGraph: HouseholdWorld.NobodyBlocked(),
                        jobsBuilt: jobs.keep, eventReminderCheckInterval: .seconds(86_400)))
            },
            .notifications: { try await buildNotificationsApplication(NotificationsConfiguration(settings: $0)) },
        ]) { stack in
            sink.inbox.connect(
                to: NotificationsNoticeSink(
                    address: ServiceAddress(try #require(stack.serviceURLs[.notifications])),
                    settings: ServiceSettings(service: .household, internalToken: stack.internalToken),
                    logger: .init(label: "test")))
            let world = HouseholdWorld(
                stack: stack, notices: sink.recorded, ann: try await stack.register("ann"),
                bob: try await stack.register("bob"), cat: try await stack.register("cat"),
                jobs: try #require(jobs.built))
            try await body(world, try await stack.register("dan"))
        }
    }

    /// RFC 3339 in UTC, whole seconds.
    static func rfc3339(_ date: Date) -> String {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(.iso8601)
    }

    func inbox(_ world: HouseholdWorld, _ user: TestUser) async throws -> [WireNotification] {
        let response = try await world.api.get(NotificationsPaths.notifications, token: world.token(user))
        return try response.decode(WirePage<WireNotification>.self).items
    }

    @Test func aHouseholdPlansAnEventAnswersItIsRemindedOnceAndSeesItCancelled() async throws {
        try await Self.run { world, dan in
            // given ann's household with bob and cat, in Paris
            let id = try await world.household(world.ann, with: [world.bob, world.cat], timeZone: "Europe/Paris")
            let start = Date(
                timeIntervalSince1970: (world.stack.clock.now.timeIntervalSince1970 / 60).rounded(.up) * 60
            )
            .addingTimeInterval(86_400)
            let events = world.path(id, "/events")
            let liveStart = world.notices.live.count
            // when ann plans a house meeting tomorrow
            let created = try await world.api.post(
                events, token: world.token(world.ann),
                json: ["title": "House meeting", "start": Self.rfc3339(start), "place": "Kitchen"])
            #expect(created.status == 201, "\(created.text)")
            let event = try created.decode(WireEvent.self)
            #expect(event.localStart == EventTimes.paris(start))
            // then bob sees it and answers; cat says no
            let listed = try await world.api.get(events, token: world.token(world.bob))
            #expect(try listed.decode(WirePage<WireEvent>.self).items.map(\.id) == [event.id])
            for (user, answer) in [(world.bob, "yes"), (world.cat, "no")] {
                let answered = try await world.api.send(
                    .PUT, events + "/\(event.id)/rsvp", token: world.token(user), json: ["answer": answer])
                #expect(answered.status == 200)
            }
            // bob may not edit ann's event; ann moves it an hour later
            let refused = try await world.api.patch(
                events + "/\(event.id)", token: world.token(world.bob), json: ["title": "Bob's party"])
            #expect(refused.status == 403)
            #expect(refused.problem?.code == "not_event_creator")
            let later = start.addingTimeInterval(3_600)
            let moved = try await world.api.patch(
                events + "/\(event.id)", token: world.token(world.ann), json: ["start": Self.rfc3339(later)])
            #expect(try moved.decode(WireEvent.self).start == later)
            #expect(
                try moved.decode(WireEvent.self).rsvps
                    == [
                        .init(userId: world.ann.id, answer: "yes"), .init(userId: world.bob.id, answer: "yes"),
                        .init(userId: world.cat.id, answer: "no"),
                    ].sorted { $0.userId < $1.userId })
            // dan, in no household, finds nothing
            #expect(try await world.api.get(events, token: world.token(dan)).status == 404)
            #expect(try await world.api.get(events + "/\(event.id)", token: world.token(dan)).status == 404)

            // the reminder: not yet a day ahead; once within the hour before the new start, once
            #expect(try await world.jobs.sendEventReminders(now: world.stack.clock.now) == 0)
            try await world.advance(
                days: later.addingTimeInterval(-1_800).timeIntervalSince(world.stack.clock.now) / 86_400)
            #expect(try await world.jobs.sendEventReminders(now: world.stack.clock.now) == 1)
            #expect(try await world.jobs.sendEventReminders(now: world.stack.clock.now) == 0)
            #expect(
                try await eventually {
                    try await inbox(world, world.bob).filter { $0.kind == "household.event_reminder" }.count == 1
                })
            let reminder = try #require(
                try await inbox(world, world.ann).first { $0.kind == "household.event_reminder" })
            #expect(
                reminder.text
                    == "Coming up: House meeting, \(EventTimes.paris(later).prefix(10)) at \(EventTimes.paris(later).suffix(5))."
            )
            #expect(reminder.link == events + "/\(event.id)")
            #expect(
                try await inbox(world, world.cat).allSatisfy { $0.kind != "household.event_reminder" }, "cat said no")

            // ann cancels: it stays listed as cancelled, and bob is told
            let cancelled = try await world.api.post(events + "/\(event.id)/cancel", token: world.token(world.ann))
            #expect(try cancelled.decode(WireEvent.self).status == "cancelled")
            let after = try await world.api.get(events, token: world.token(world.bob))
            #expect(try after.decode(WirePage<WireEvent>.self).items.map(\.status) == ["cancelled"])
            #expect(
                try await eventually {
                    try await inbox(world, world.bob).contains { $0.kind == "household.event_cancelled" }
                })

            // every change reached every member's open lists, and the feed
            let everyone: Set = [world.ann.id, world.bob.id, world.cat.id]
            let live = world.notices.live.dropFirst(liveStart).filter { $0.type.hasPrefix("household.event.") }
            #expect(
                live.map(\.type) == [
                    "household.event.created", "household.event.rsvp", "household.event.rsvp",
                    "household.event.updated",
                    "household.event.cancelled",
                ])
            #expect(live.allSatisfy { Set($0.recipients) == everyone })
            let feed = try await world.api.get(world.path(id, "/activity"), token: world.token(world.cat))
            #expect(
                try feed.decode(WireItems<WireActivity>.self).items.prefix(3).map(\.kind) == [
                    "event_cancelled", "event_updated", "event_created",
                ])
        }
    }

    @Test func aCancelledEventSendsNoReminder() async throws {
        try await Self.run { world, _ in
            let id = try await world.household(world.ann, with: [world.bob])
            let start = world.stack.clock.now.addingTimeInterval(7_200)
            let created = try await world.api.post(
                world.path(id, "/events"), token: world.token(world.ann),
                json: ["title": "Landlord visit", "start": Self.rfc3339(start)])
            let event = try created.decode(WireEvent.self)
            #expect(
                try await world.api.post(world.path(id, "/events/\(event.id)/cancel"), token: world.token(world.ann))
                    .status == 200)
            #expect(try await world.jobs.sendEventReminders(now: start.addingTimeInterval(-600)) == 0)
            #expect(world.notices.kinds.allSatisfy { $0 != "household.event_reminder" })
        }
    }
}

/// Local times in Paris, as the household's clock shows them.
enum EventTimes {
    static func paris(_ instant: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Paris")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
    }
}
