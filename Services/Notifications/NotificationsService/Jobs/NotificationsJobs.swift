import Foundation

/// The notifications service's periodic work, built with its dependencies when the service is built; tests receive
/// it (``NotificationsConfiguration/jobsBuilt``) to run it at the manual clock's time. Pushes go out through their
/// own queue (``PushDispatcher``), fed as notices arrive.
public struct NotificationsJobs: Sendable {
    let streamPruning: StreamPruning

    /// Deletes the stream events past their retention at `now` (the inbox keeps its notices).
    public func pruneStream(now: Date) async throws {
        try await streamPruning.run(now: now)
    }
}
