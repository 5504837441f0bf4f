import Foundation

/// The household service's background work, built with its dependencies when the service is built; tests
/// receive it (``HouseholdConfiguration/jobsBuilt``) to run it at the manual clock's time.
public struct HouseholdJobs: Sendable {
    let monthEnd: MonthEndReminders
    let eventReminders: EventReminders

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
}
