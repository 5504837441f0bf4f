import Foundation
import PlatformKit
import ServiceKit

/// Deletes stream events past their retention (they only serve `Last-Event-ID` resume); the inbox keeps its
/// notices.
struct StreamPruning: Sendable {
    let store: any NotificationsStore
    let retention: TimeInterval

    /// Deletes the events older than the retention at `now`.
    func run(now: Date) async throws {
        try await store.pruneEvents(before: now.addingTimeInterval(-retention))
    }
}
