import Foundation

/// The household service's background work, built with its dependencies when the service is built; tests
/// receive it (``HouseholdConfiguration/jobsBuilt``) to run it at the manual clock's time.
public struct HouseholdJobs: Sendable {
    let monthEnd: MonthEndReminders
    let eventReminders: EventReminders
    let choreReminders: ChoreDueReminders
    let recurringBills: RecurringBills

    /// Sends the end-of-month reminders due at `now` (once per member, household and month, at the time each
    /// member chose); returns how many members were reminded.
    public func sendMonthEndReminders(now: Date) async throws -> Int {
        try await monthEnd.run(now: now)
    }

    /// Sends the event reminders due at `now` (once per event and start, to every member who did not answer no);
    /// returns how many events were reminded.
    public func sendEventReminders(now: Date) async throws -> Int {
        try await eventReminders.run(now: now)
    }

    /// Reminds each chore's assignee on its due day from 09:00 in the household's zone (once per chore and due day,
    /// never after 21:00); returns how many were reminded.
    public func sendChoreReminders(now: Date) async throws -> Int {
        try await choreReminders.run(now: now)
    }

    /// Makes the recurring bills whose day has come in their household's zone (once per recurring bill and day; the
    /// latest missed day only after downtime) and tells each payer; returns how many bills were made.
    public func makeRecurringBills(now: Date) async throws -> Int {
        try await recurringBills.run(now: now)
    }
}
