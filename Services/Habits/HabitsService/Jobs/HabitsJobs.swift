import Foundation

/// The habits service's background work, built with its dependencies when the service is built; tests receive it
/// (``HabitsConfiguration/jobsBuilt``) to run it at the manual clock's time.
public struct HabitsJobs: Sendable {
    let reminders: HabitReminders

    /// Sends the habit reminders due at `now` (once per habit and local day); returns how many were sent.
    public func sendReminders(now: Date) async throws -> Int {
        try await reminders.run(now: now)
    }
}
