import Synchronization

/// A W3C Trace Context `traceparent` value (https://www.w3.org/TR/trace-context/#traceparent-header): the
/// trace a request belongs to, the span that sent it, and the sampled flag.
///
/// Parsed and written by hand, without Foundation, because the gateway does it for every request it forwards.
public struct TraceParent: Sendable, Hashable {
    /// The 16-byte trace id, as two big-endian halves.
    public var traceID: (high: UInt64, low: UInt64)
    /// The 8-byte id of the span that sent the request.
    public var spanID: UInt64
    /// The trace flags; bit 0 is "sampled".
    public var flags: UInt8

    /// A value with these ids.
    public init(traceID: (high: UInt64, low: UInt64), spanID: UInt64, flags: UInt8 = 1) {
        self.traceID = traceID
        self.spanID = spanID
        self.flags = flags
    }

    /// Parses a header value; `nil` when it is absent or not a valid `traceparent` (an invalid one is ignored,
    /// as the specification asks). Versions after `00` are read by their version-00 prefix.
    public init?(_ header: String?) {
        guard var header, header.utf8.count >= 55 else { return nil }
        let parsed = header.withUTF8 { Self.parse($0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// A new span of the same trace, keeping the flags.
    public func child(spanID: UInt64) -> TraceParent {
        TraceParent(traceID: traceID, spanID: spanID, flags: flags)
    }

    /// A new trace, sampled, with random ids from `generator`.
    public static func root(using generator: inout some RandomNumberGenerator) -> TraceParent {
        TraceParent(
            traceID: (generator.nonZero(), generator.nonZero()), spanID: generator.nonZero(), flags: 1)
    }

    /// The header value, version `00`: 55 characters.
    public var header: String {
        String(unsafeUninitializedCapacity: 55) { buffer in
            write(into: buffer)
            return 55
        }
    }

    /// Hands the header value's 55 bytes to `body` from the stack, without making a `String` (the gateway writes
    /// them straight into the head it forwards).
    public func withHeaderBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 55) { buffer in
            write(into: buffer)
            return try body(UnsafeRawBufferPointer(buffer))
        }
    }

    private func write(into buffer: UnsafeMutableBufferPointer<UInt8>) {
        buffer[0] = UInt8(ascii: "0")
        buffer[1] = UInt8(ascii: "0")
        buffer[2] = UInt8(ascii: "-")
        LowercaseHex.write(traceID.high, digits: 16, into: buffer, at: 3)
        LowercaseHex.write(traceID.low, digits: 16, into: buffer, at: 19)
        buffer[35] = UInt8(ascii: "-")
        LowercaseHex.write(spanID, digits: 16, into: buffer, at: 36)
        buffer[52] = UInt8(ascii: "-")
        LowercaseHex.write(UInt64(flags), digits: 2, into: buffer, at: 53)
    }

    /// The trace id as 32 lowercase hex digits (as log lines and trace viewers show it).
    public var traceIDHex: String {
        String(unsafeUninitializedCapacity: 32) { buffer in
            LowercaseHex.write(traceID.high, digits: 16, into: buffer, at: 0)
            LowercaseHex.write(traceID.low, digits: 16, into: buffer, at: 16)
            return 32
        }
    }

    /// The span id as 16 lowercase hex digits.
    public var spanIDHex: String {
        String(unsafeUninitializedCapacity: 16) { buffer in
            LowercaseHex.write(spanID, digits: 16, into: buffer, at: 0)
            return 16
        }
    }

    public static func == (a: TraceParent, b: TraceParent) -> Bool {
        a.traceID == b.traceID && a.spanID == b.spanID && a.flags == b.flags
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(traceID.high)
        hasher.combine(traceID.low)
        hasher.combine(spanID)
        hasher.combine(flags)
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> TraceParent? {
        let dash = UInt8(ascii: "-")
        guard bytes[2] == dash, bytes[35] == dash, bytes[52] == dash,
            let version = hex(bytes, 0, 2), version != 0xff,
            // Version 00 is exactly 55 characters; a later version may append fields after another dash.
            bytes.count == 55 || (version > 0 && bytes[55] == dash),
            let high = hex(bytes, 3, 16), let low = hex(bytes, 19, 16), high | low != 0,
            let span = hex(bytes, 36, 16), span != 0,
            let flags = hex(bytes, 53, 2)
        else { return nil }
        return TraceParent(traceID: (high, low), spanID: span, flags: UInt8(flags))
    }

    /// Lowercase hex digits only, as the specification requires.
    private static func hex(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> UInt64? {
        var value: UInt64 = 0
        for byte in bytes[start..<start + count] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }
}

/// Fast random ids for trace contexts: ``SplitMix64`` seeded once from the system, so starting a trace costs no
/// system call. Ids need to be unlikely to collide, not unpredictable.
public struct TraceIDGenerator: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    /// A generator seeded from the system's random source.
    public init() {
        var system = SystemRandomNumberGenerator()
        self.generator = SplitMix64(state: system.next())
    }

    public mutating func next() -> UInt64 {
        generator.next()
    }
}

/// ``TraceIDGenerator``'s sequence shared by every thread of the process (one atomic add per id), for a tracer
/// that starts spans anywhere: the system's generator costs a system call per id, three for a new trace.
public struct SharedTraceIDGenerator: RandomNumberGenerator, Sendable {
    private static let seed: UInt64 = {
        var system = SystemRandomNumberGenerator()
        return system.next()
    }()
    private static let steps = Atomic<UInt64>(0)

    /// A view of the process's sequence.
    public init() {}

    public mutating func next() -> UInt64 {
        let step = Self.steps.wrappingAdd(SplitMix64.increment, ordering: .relaxed).newValue
        return SplitMix64.mix(Self.seed &+ step)
    }
}

extension TraceParent {
    /// A random span id (never zero) from `generator`.
    public static func spanID(using generator: inout some RandomNumberGenerator) -> UInt64 {
        generator.nonZero()
    }
}

extension RandomNumberGenerator {
    /// A random value other than zero (an all-zero id is invalid).
    fileprivate mutating func nonZero() -> UInt64 {
        while true {
            let value = next()
            if value != 0 { return value }
        }
    }
}

/// Lowercase hex digits written in place, for the ids the platform makes (trace contexts, request ids).
enum LowercaseHex {
    /// Writes `value`'s lowest `digits` hex digits at `start`, zero-padded.
    static func write(_ value: UInt64, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var value = value
        for index in stride(from: start + digits - 1, through: start, by: -1) {
            let digit = UInt8(truncatingIfNeeded: value & 0xf)
            buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10
            value >>= 4
        }
    }
}
