import Foundation
import PlatformKit
import ServiceLifecycle

/// Deletes stream events past their retention every ten minutes; the inbox is not touched.
struct StreamLogPruner: Service {
    let database: NotificationsDatabase
    let retention: TimeInterval
    let clock: WallClock

    func run() async {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await database.pruneEvents(before: clock.now.addingTimeInterval(-retention))
                try? await Task.sleep(for: .seconds(600))
            }
        }
    }
}
