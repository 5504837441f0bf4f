import Synchronization

/// Request ids made up by the platform (the gateway, and services called directly): a random per-process prefix
/// and a counter, unique without asking the system for randomness on every request. Foundation's `UUID()` opens,
/// reads and closes `/dev/urandom` each time: three system calls per request.
public enum RequestIDs {
    /// 16 hex digits and a dash.
    private static let prefix: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        var digits = Array(String(UInt64.random(in: .min ... .max, using: &generator), radix: 16).utf8)
        digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: 16 - digits.count), at: 0)
        return digits + [UInt8(ascii: "-")]
    }()
    private static let counter = Atomic<UInt64>(0)

    /// A new id, e.g. `9f3c2a7e1b04d5c6-1a`: written into one new string (concatenating the parts cost
    /// three allocations: 0.36 µs of the gateway's 25 on a forwarded request, in a profile).
    public static func next() -> String {
        let number = counter.wrappingAdd(1, ordering: .relaxed).newValue
        let digits = max(1, (UInt64.bitWidth - number.leadingZeroBitCount + 3) / 4)
        let prefix = prefix
        return String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
            _ = buffer.initialize(from: prefix)
            LowercaseHex.write(number, digits: digits, into: buffer, at: prefix.count)
            return prefix.count + digits
        }
    }
}
