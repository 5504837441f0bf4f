import Foundation
import PlatformKit
import ServiceKit
import Synchronization

/// The household service's background work, runnable at a chosen instant (tests pass the manual clock's).
public final class HouseholdJobs: Sendable {
    private let monthEnd = Mutex<(@Sendable (Date) async throws -> Int)?>(nil)

    public init() {}

    /// Sends the end-of-month reminders due at `now` (once per household and month); returns how many
    /// members were reminded. Does nothing before the service is built.
    public func sendMonthEndReminders(now: Date) async throws -> Int {
        guard let run = monthEnd.withLock({ $0 }) else { return 0 }
        return try await run(now)
    }

    func install(_ database: HouseholdDatabase, _ events: any NoticeSink) {
        monthEnd.withLock { $0 = { now in try await Self.monthEnd(database, events, now) } }
    }

    /// On the last local day of a month, everyone in a household who owes money is told how much.
    static func monthEnd(_ database: HouseholdDatabase, _ events: any NoticeSink, _ now: Date) async throws -> Int {
        var reminded = 0
        for (householdID, month, debts) in try await database.claimMonthEndReminders(now: now) {
            for (debtor, owes) in debts.sorted(by: { $0.key < $1.key }) {
                await events.publish(
                    Notice(
                        recipients: [debtor], kind: "household.month_end_reminder",
                        text: "The month is ending: you owe \(SettleController.describe(owes)) in your household.",
                        link: HouseholdPaths.households + "/" + householdID + "/balances",
                        idempotencyKey: "month-end:\(householdID):\(month):\(debtor)"))
                reminded += 1
            }
        }
        return reminded
    }
}
