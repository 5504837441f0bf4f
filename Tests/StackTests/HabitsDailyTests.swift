import Foundation
import HabitsService
import NotificationsService
import PlatformKit
import ServiceKit
import Synchronization
import TestSupport
import Testing

/// A measurable habit with a reminder, through the gateway: values logged, a day skipped, a pause, strength and
/// streaks that leave both out, the CSV export, another user refused, and the reminder in the inbox once.
@Suite struct HabitsDailyTests {
    final class BuiltJobs: Sendable {
        private let jobs = Mutex<HabitsJobs?>(nil)
        var built: HabitsJobs? { jobs.withLock { $0 } }
        @Sendable func keep(_ built: HabitsJobs) { jobs.withLock { $0 = built } }
    }

    struct Water: Encodable, Sendable {
        struct Reminder: Encodable, Sendable { var time: String }
        var title = "Water"
        var weekdays = HabitBody.everyDay
        var startDate = "2027-01-01"
        var target = 2.0
        var unit = "l"
        var reminder = Reminder(time: "20:00")
    }

    struct Value: Encodable, Sendable {
        var date: String
        var value: Double
    }

    @Test func aMeasurableHabitIsLoggedSkippedPausedExportedAndRemindedOnce() async throws {
        let notices = LateNoticeSink()
        let jobs = BuiltJobs()
        try await withTestStack(services: [
            .habits: { settings in
                try await buildHabitsApplication(
                    HabitsConfiguration(
                        settings: settings, followGraph: SocialGraphClient(address: "http://127.0.0.1:1", token: ""),
                        noticeSink: notices, jobsBuilt: jobs.keep, reminderCheckInterval: .seconds(86_400)))
            },
            .notifications: { try await buildNotificationsApplication(NotificationsConfiguration(settings: $0)) },
        ]) { stack in
            notices.connect(
                to: NotificationsNoticeSink(
                    address: ServiceAddress(try #require(stack.serviceURLs[.notifications])),
                    settings: ServiceSettings(service: .habits, internalToken: stack.internalToken),
                    logger: .init(label: "test")))
            // 2027-01-06 18:00 in Paris (17:00 UTC)
            stack.clock.advance(by: try HabitsWorld.date("2027-01-06T17:00:00Z").timeIntervalSince(stack.clock.now))
            let (ann, bob) = (try await stack.register("ann"), try await stack.register("bob"))
            let api = stack.gateway
            let zone = try await api.send(
                .PUT, HabitsPaths.preferences, token: ann.accessToken, json: ["timeZone": "Europe/Paris"])
            #expect(zone.status == 200)

            // given a measurable habit: 2 l a day, reminded at 20:00 Paris time
            let created = try await api.post(HabitsPaths.habits, token: ann.accessToken, json: Water())
            #expect(created.status == 201, "\(created.text)")
            let habit = try #require(created.object["id"] as? String)
            let base = HabitsPaths.habits + "/\(habit)"
            // the 1st and 2nd met, the 3rd skipped, the 4th only 1.5 l but paused (4th-5th)
            for (date, value) in [("2027-01-01", 2.0), ("2027-01-02", 2.5), ("2027-01-04", 1.5)] {
                let logged = try await api.post(
                    base + "/events", token: ann.accessToken, json: Value(date: date, value: value))
                #expect(logged.status == 201, "\(logged.text)")
            }
            #expect(try await api.send(.PUT, base + "/skips/2027-01-03", token: ann.accessToken).status == 204)
            let paused = try await api.post(
                base + "/pauses", token: ann.accessToken, json: ["from": "2027-01-04", "to": "2027-01-05"])
            #expect(paused.status == 201, "\(paused.text)")

            // then the streak runs through the skip and the pause, and they are named in the explanation
            let statistics = try await api.get(base + "/statistics", token: ann.accessToken)
            #expect(statistics.status == 200, "\(statistics.text)")
            #expect(statistics.object["currentStreak"] as? Int == 2)
            #expect(statistics.object["dueDays"] as? Int == 2)
            #expect(statistics.object["skippedOrPausedDueDays"] as? Int == 3)
            let strength = try #require(statistics.object["strength"] as? [String: Any])
            #expect((strength["explanation"] as? String)?.contains("skipped and paused days") == true)

            // another user can see, change, export or remind on none of it
            #expect(try await api.get(base, token: bob.accessToken).status == 404)
            #expect(try await api.get(base + "/events.csv", token: bob.accessToken).status == 404)
            #expect(try await api.send(.PUT, base + "/skips/2027-01-06", token: bob.accessToken).status == 404)
            #expect(
                try await api.patch(base, token: bob.accessToken, json: ["reminder": ["time": "06:00"]]).status == 404)
            let bobs = try await api.get(HabitsPaths.habits + "/events.csv", token: bob.accessToken)
            #expect(
                bobs.status == 200
                    && bobs.text == "date,habit_id,habit,value,unit,comment,latitude,longitude,created_at\r\n")

            // the export: text/csv, one line per event
            let csv = try await api.get(base + "/events.csv", token: ann.accessToken)
            #expect(csv.status == 200)
            #expect(csv.headers.first(name: "content-type")?.hasPrefix("text/csv") == true)
            #expect(
                csv.text.components(separatedBy: "\r\n").dropFirst().map { $0.prefix(10) }.filter { !$0.isEmpty }
                    == ["2027-01-01", "2027-01-02", "2027-01-04"])

            // the reminder (20:00 Paris is 19:00 UTC): not before; at 20:01 once, not again after a second run; none once done
            let built = try #require(jobs.built)
            #expect(try await built.sendReminders(now: stack.clock.now) == 0)
            stack.clock.advance(by: 2 * 3_600 + 60)
            let reminded = try await built.sendReminders(now: stack.clock.now)
            #expect(reminded == 1)
            #expect(try await built.sendReminders(now: stack.clock.now) == 0)
            let login = try await api.post(
                IdentityPaths.login, json: ["identifier": ann.username, "password": ann.password])
            let token = try login.decode(SignedIn.self).accessToken
            #expect(
                try await eventually {
                    let inbox = try await api.get(NotificationsPaths.notifications, token: token)
                    let items = try inbox.decode(WirePage<WireNotification>.self).items
                    return items.filter { $0.kind == "habits.reminder" }.map(\.text) == ["Time for Water: 2 l today"]
                })
        }
    }
}
