import Foundation

/// The source of "now" for everything that depends on time, so tests can inject a clock.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Date

    /// A clock that reads the given closure.
    public init(_ read: @escaping @Sendable () -> Date) {
        self.read = read
    }

    /// The current instant.
    public var now: Date { read() }

    /// The system clock.
    public static let system = WallClock { Date() }
}
