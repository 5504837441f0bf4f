import Foundation
import PlatformKit
import ServiceKit

/// On the last local day of a month, everyone in a household who owes money is told how much (once per
/// household and month).
struct MonthEndReminders: Sendable {
    let database: HouseholdDatabase
    let events: any NoticeSink

    /// Sends the reminders due at `now`; returns how many members were reminded.
    func run(now: Date) async throws -> Int {
        var reminded = 0
        for (householdID, month, debts) in try await database.claimMonthEndReminders(now: now) {
            for (debtor, owes) in debts.sorted(by: { $0.key < $1.key }) {
                await events.publish(
                    Notice(
                        recipients: [debtor], kind: "household.month_end_reminder", text: Reminders.atMonthEnd(owes),
                        link: HouseholdPaths.households + "/" + householdID + "/balances",
                        idempotencyKey: "month-end:\(householdID):\(month):\(debtor)"))
                reminded += 1
            }
        }
        return reminded
    }
}
