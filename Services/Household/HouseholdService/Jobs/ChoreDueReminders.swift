import Foundation
import PlatformKit
import ServiceKit

/// On a chore's due day, from 09:00 in the household's zone (``ChoreDueRule``), its assignee is reminded once: the
/// store marks the reminder sent in the transaction that claims it (a row per chore and due day), so a restart or a
/// second replica never sends it again, and a chore already done for that day has moved on to its next due day.
struct ChoreDueReminders: Sendable {
    let store: any HouseholdStore
    let notices: any NoticeSink
    /// How many reminders one claim takes; the job claims again until none are left.
    static let batch = 100

    /// Sends the reminders due at `now`; returns how many assignees were reminded.
    func run(now: Date) async throws -> Int {
        var reminded = 0
        while true {
            // The reminders are reported with their claim: marked sent and sent in one write.
            let claimed = try await store.claimChoreReminders(
                now: now, limit: Self.batch,
                notices: ChangeNotices(sink: notices) { claimed in
                    claimed.map { reminder in
                        Notice(
                            recipients: [reminder.assigneeID], kind: "household.chore_due",
                            text: ChoreDueRule.text(chore: reminder.choreName),
                            link: HouseholdPaths.households + "/" + reminder.householdID + "/chores",
                            // One key per chore and due day: a retried post is kept once.
                            idempotencyKey: "chore-due:\(reminder.choreID):\(reminder.dueOn)")
                    }
                })
            reminded += claimed.count
            if claimed.count < Self.batch { return reminded }
        }
    }
}
