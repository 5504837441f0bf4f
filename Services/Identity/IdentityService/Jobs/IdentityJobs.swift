import Foundation

/// The identity service's periodic work, built with its dependencies when the service is built; tests receive it
/// (``IdentityConfiguration/jobsBuilt``) to run it at the manual clock's time. Mail goes out through its own
/// delivery loop (``OutboxDelivery``), woken as each mail is queued.
public struct IdentityJobs: Sendable {
    let sessionExpiry: SessionExpiry

    /// Ends the sessions past their lifetime at `now`, deletes those ended a week before and the expired nonces.
    public func expireSessions(now: Date) async throws {
        try await sessionExpiry.run(now: now)
    }
}
