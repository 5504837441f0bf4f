import Foundation
import PlatformKit
import ServiceKit

/// Near a month's end, everyone in a household who owes money is told how much: on the last local day, or as
/// many days before and from the local hour each member chose (once per member, household and month).
struct MonthEndReminders: Sendable {
    let store: any HouseholdStore
    let notices: any NoticeSink

    /// Sends the reminders due at `now`; returns how many members were reminded.
    func run(now: Date) async throws -> Int {
        // The reminders are reported with their claim: marked sent and sent in one write.
        try await store.claimMonthEndReminders(
            now: now,
            notices: ChangeNotices(sink: notices) { claimed in
                claimed.map { householdID, month, debtor, owes in
                    Notice(
                        recipients: [debtor], kind: "household.month_end_reminder", text: Reminders.atMonthEnd(owes),
                        link: HouseholdPaths.households + "/" + householdID + "/balances",
                        idempotencyKey: "month-end:\(householdID):\(month):\(debtor)")
                }
            }
        ).count
    }
}
