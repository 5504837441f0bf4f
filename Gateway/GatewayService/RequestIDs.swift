import Foundation
import Synchronization

/// Request ids the gateway assigns: a random per-process prefix and a counter, unique without asking
/// the system for randomness on every request (as a UUID would).
enum RequestIDs {
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        return String(UInt64.random(in: .min ... .max, using: &generator), radix: 16)
    }()
    private static let counter = Atomic<UInt64>(0)

    static func next() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 16)
    }
}
