import Foundation
import PlatformKit
import ServiceKit

/// Before an event starts (its `remindMinutesBefore`, an hour unless the creator chose otherwise), every member who
/// did not answer no is reminded, once per start: the store marks each reminder sent in the transaction that claims
/// it, so a restart or a second replica never sends it again, and a moved start arms a new one.
struct EventReminders: Sendable {
    let store: any HouseholdStore
    let notices: any NoticeSink
    /// How many reminders one claim takes; the job claims again until none are left.
    static let batch = 100

    /// Sends the reminders due at `now`; returns how many events were reminded.
    func run(now: Date) async throws -> Int {
        var reminded = 0
        while true {
            // The reminders are reported with their claim: marked sent and sent in one write.
            let claimed = try await store.claimEventReminders(
                now: now, limit: Self.batch,
                notices: ChangeNotices(sink: notices) { claimed in
                    claimed.filter { !$0.recipients.isEmpty }.map { reminder in
                        let event = reminder.event
                        return Notice(
                            recipients: reminder.recipients, kind: "household.event_reminder",
                            text: EventRules.noticeText(
                                "Coming up", title: event.title, start: event.startsAt, timeZone: reminder.timeZone),
                            link: EventsController.link(event),
                            // One key per event and start: a retried post is kept once, a moved start's is new.
                            idempotencyKey: "event-reminder:\(event.id):\(Int64(event.startsAt.timeIntervalSince1970))")
                    }
                })
            reminded += claimed.count
            if claimed.count < Self.batch { return reminded }
        }
    }
}
