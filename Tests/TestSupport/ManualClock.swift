import Foundation
import PlatformKit
import Synchronization

/// A clock the test moves by hand: rate limits, expiries and grace windows without sleeping.
public final class ManualClock: Sendable {
    private let current: Mutex<Date>

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Mutex(start)
    }

    public var now: Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the services take it.
    public var wallClock: WallClock {
        WallClock { [self] in self.now }
    }
}
