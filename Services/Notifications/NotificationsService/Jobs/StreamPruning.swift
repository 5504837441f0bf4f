import Foundation
import Logging
import PlatformKit
import ServiceKit

/// Deletes stream events past their retention (they only serve `Last-Event-ID` resume); the inbox keeps its
/// notices.
struct StreamPruning: Sendable {
    let store: any NotificationsStore
    let retention: TimeInterval
    let clock: WallClock

    func run() async throws {
        try await store.pruneEvents(before: clock.now.addingTimeInterval(-retention))
    }

    /// The job running this every ten minutes.
    func job(logger: Logger) -> PeriodicJob {
        PeriodicJob("stream log pruning", every: .seconds(600), logger: logger) { try await run() }
    }
}
