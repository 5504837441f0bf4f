import Foundation
import PlatformKit
import ServiceKit

/// On each day of a recurring bill's schedule, in its household's zone, the bill is made once and its payer told:
/// the store makes it in the transaction that claims the day (a row per recurring bill and day), so a restart or
/// a second replica never makes it again. After downtime only the latest missed day is made.
struct RecurringBills: Sendable {
    let store: any HouseholdStore
    let notices: any NoticeSink
    /// How many recurring bills one pass looks at; the job passes again while a full pass made some.
    static let batch = 100

    /// Makes the bills due at `now`; returns how many were made.
    func run(now: Date) async throws -> Int {
        var made = 0
        while true {
            let candidates = try await store.recurringBillsToMake(now: now, limit: Self.batch)
            var madeNow = 0
            for candidate in candidates {
                // The payer's notice is reported with the bill: made and told in one write.
                guard
                    try await store.makeRecurringBill(
                        candidate.id, in: candidate.householdID, now: now,
                        notices: ChangeNotices(sink: notices) { made in made.map { [Self.notice($0)] } ?? [] }) != nil
                else { continue }
                madeNow += 1
            }
            made += madeNow
            // Candidates not yet due in their zone come back each pass: stop once a pass makes nothing.
            if candidates.count < Self.batch || madeNow == 0 { return made }
        }
    }

    /// The payer's notice of a bill the schedule made.
    static func notice(_ made: MadeRecurringBill) -> Notice {
        let bill = made.bill
        return Notice(
            recipients: [bill.payerId], kind: "household.recurring_bill",
            text: "Recurring bill added: \(bill.description), "
                + "\(MinorUnits.decimal(bill.amount, bill.currency)) \(bill.currency)",
            link: HouseholdPaths.households + "/" + bill.householdId + "/bills/" + bill.id,
            // One key per recurring bill and day: a retried post is kept once.
            idempotencyKey: "recurring-bill:\(made.templateID):\(made.day)")
    }
}
