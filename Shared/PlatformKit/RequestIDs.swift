import Synchronization

/// Request ids made up by the platform (the gateway, and services called directly): a random per-process prefix
/// and a counter, unique without asking the system for randomness on every request. Foundation's `UUID()` opens,
/// reads and closes `/dev/urandom` each time: three system calls per request.
public enum RequestIDs {
    private static let prefix: String = {
        var generator = SystemRandomNumberGenerator()
        return String(UInt64.random(in: .min ... .max, using: &generator), radix: 16)
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A new id, e.g. `9f3c2a7e1b04d5c6-1a`.
    public static func next() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        return prefix + "-" + String(number, radix: 16)
    }
}
