/// SplitMix64: a small, fast random number generator with a 64-bit state. Deterministic from its state, so tests and
/// benchmarks draw the same cases on every run; seeded from the system, it makes ids that need to be unlikely to
/// collide, not unpredictable (trace ids).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The state; the next value is the mix of the state advanced by ``increment``.
    public var state: UInt64

    /// A generator starting at `state`.
    public init(state: UInt64) {
        self.state = state
    }

    /// A generator for `seed` (the seed advanced once, so seed 0 does not start at state 0).
    public init(seed: UInt64) {
        self.state = seed &+ Self.increment
    }

    public mutating func next() -> UInt64 {
        state &+= Self.increment
        return Self.mix(state)
    }

    /// The step the state advances by (the golden ratio in 64 bits).
    public static let increment: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// SplitMix64's output function.
    public static func mix(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
