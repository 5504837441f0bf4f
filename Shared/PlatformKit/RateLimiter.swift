import Crypto
import Foundation
import Synchronization

/// A token bucket per key (an account, a client address): `capacity` requests at once, refilled evenly
/// over `period`. Lives in memory, per process; the clock is injected so tests control time.
///
/// **Bounded.** At most `maximumKeys` buckets are kept, in a table of slots threaded as a least-recently-used list
/// (indices, no object per bucket) with a dictionary from key to slot: a slot is 40 bytes, its dictionary entry
/// about 30, and a key at most 64 bytes (a longer one is kept as its SHA-256). Measured: 100,000 buckets of IPv6
/// /64 keys take 16 MiB, about 170 bytes each (`RateLimiterBenchmark`); with the longest keys, about 20 MB.
/// Every call is O(1): one lookup, a move to the front of the list, and when a new key finds the table full, one
/// eviction. A bucket that is full after a call is not kept at all (a full bucket carries no information).
///
/// **Eviction.** The victim is the first bucket that has refilled completely among the ``evictionWindow`` least
/// recently used, else the least recently used. Eviction forgets: it is what an attacker gains by flooding keys
/// (say, to reset the failed sign-ins counted against a victim's account). To evict a bucket that has not
/// refilled, they must bring `maximumKeys` new keys after its last use, faster than those keys' buckets refill
/// (a refilled one is evicted first), each request getting past whatever limits stand in front of this one; and
/// the prize is a bucket that is full again: `capacity` more tries per `maximumKeys` such requests.
public final class RateLimiter: Sendable {
    private let clock: WallClock
    private let buckets: Mutex<Buckets>

    /// How many of the least recently used buckets an eviction looks at for one that has refilled.
    public static let evictionWindow = 8
    /// Keys longer than this many UTF-8 bytes are kept as their SHA-256, so a key costs a bounded amount of memory.
    public static let longestStoredKey = 64

    /// A limiter allowing `capacity` requests per `period` seconds per key, keeping at most `maximumKeys` buckets.
    public init(capacity: Int, period: TimeInterval, clock: WallClock = .system, maximumKeys: Int = 100_000) {
        precondition((1...Int(Int32.max)).contains(maximumKeys), "maximumKeys must be 1 to Int32.max")
        self.clock = clock
        self.buckets = Mutex(
            Buckets(capacity: Double(capacity), refillPerSecond: Double(capacity) / period, maximumKeys: maximumKeys))
    }

    /// Takes one token for `key`; returns `nil` when allowed, else the seconds until one is available.
    public func acquire(_ key: String) -> Int? {
        update(key) { tokens in
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }
    }

    /// The seconds until `key` may try again, without taking a token; `nil` when it may now.
    public func retryAfter(_ key: String) -> Int? {
        update(key) { tokens in tokens >= 1 }
    }

    /// Takes one token for `key` even when none is left (for counting failures after the fact).
    public func record(_ key: String) {
        _ = update(key) { tokens in
            tokens = max(0, tokens - 1)
            return true
        }
    }

    /// Same as ``acquire(_:)`` but throws a 429 ``Problem`` when the key is over its limit.
    public func enforce(_ key: String, _ detail: String = "Too many attempts; try again later.") throws {
        if let seconds = acquire(key) { throw Problem.tooManyRequests(retryAfter: seconds, detail) }
    }

    /// How many buckets are kept now (never more than `maximumKeys`).
    public var storedKeys: Int {
        buckets.withLock { $0.index.count }
    }

    /// The key a client address is limited under: an IPv6 address by its /64 (what one subscriber is usually
    /// given, and can rotate through at will), an IPv4 or IPv4-mapped IPv6 address by its IPv4 address; anything
    /// that is not an address, as given. Every limiter keyed on a client address keys it with this.
    public static func key(forAddress address: String) -> String {
        IPAddress(address)?.limiterKey ?? address
    }

    private func update(_ key: String, _ body: (inout Double) -> Bool) -> Int? {
        let now = clock.now.timeIntervalSinceReferenceDate
        let key = key.utf8.count <= Self.longestStoredKey ? key : Self.digest(key)
        return buckets.withLock { $0.update(key, now: now, body) }
    }

    private static func digest(_ key: String) -> String {
        "sha256:" + Data(SHA256.hash(data: Data(key.utf8))).base64URLEncoded
    }
}

/// The buckets of one limiter: slots in a fixed-size table, most recently used first.
private struct Buckets {
    struct Slot {
        var key: String
        var tokens: Double
        /// Seconds since the reference date.
        var updatedAt: Double
        /// The next slot towards the most recently used (or, for a free slot, the next free one); `none` at the end.
        var newer: Int32
        /// The next slot towards the least recently used; `none` at the end.
        var older: Int32
    }

    static let none: Int32 = -1

    let capacity: Double
    let refillPerSecond: Double
    let maximumKeys: Int
    var index: [String: Int32] = [:]
    var slots: [Slot] = []
    var newest = Buckets.none
    var oldest = Buckets.none
    /// Slots whose buckets filled up and were dropped, chained through `newer`.
    var free = Buckets.none

    init(capacity: Double, refillPerSecond: Double, maximumKeys: Int) {
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
        self.maximumKeys = maximumKeys
    }

    /// Refills `key`'s bucket to `now`, applies `body` to its tokens and keeps the bucket unless it is full.
    mutating func update(_ key: String, now: Double, _ body: (inout Double) -> Bool) -> Int? {
        let slot = index[key]
        var tokens = slot.map { refilled(slots[Int($0)], at: now) } ?? capacity
        let allowed = body(&tokens)
        switch (slot, tokens >= capacity) {
        case (let slot?, true):
            drop(slot)
        case (let slot?, false):
            slots[Int(slot)].tokens = tokens
            slots[Int(slot)].updatedAt = now
            unlink(slot)
            pushNewest(slot)
        case (nil, false):
            let slot = vacantSlot(now: now)
            slots[Int(slot)] = Slot(key: key, tokens: tokens, updatedAt: now, newer: Self.none, older: Self.none)
            index[key] = slot
            pushNewest(slot)
        case (nil, true):
            break
        }
        return allowed ? nil : Int(((1 - tokens) / refillPerSecond).rounded(.up))
    }

    /// The slot's tokens at `now`.
    func refilled(_ slot: Slot, at now: Double) -> Double {
        min(capacity, slot.tokens + max(0, now - slot.updatedAt) * refillPerSecond)
    }

    /// A slot for a new bucket: a free one, a new one while the table is not full, else an evicted one.
    mutating func vacantSlot(now: Double) -> Int32 {
        if free != Self.none {
            let slot = free
            free = slots[Int(slot)].newer
            return slot
        }
        if slots.count < maximumKeys {
            slots.append(Slot(key: "", tokens: 0, updatedAt: 0, newer: Self.none, older: Self.none))
            return Int32(slots.count - 1)
        }
        var victim = oldest
        var candidate = oldest
        for _ in 0..<RateLimiter.evictionWindow where candidate != Self.none {
            if refilled(slots[Int(candidate)], at: now) >= capacity {
                victim = candidate
                break
            }
            candidate = slots[Int(candidate)].newer
        }
        index[slots[Int(victim)].key] = nil
        unlink(victim)
        return victim
    }

    /// Forgets a full bucket; its slot goes to the free list.
    mutating func drop(_ slot: Int32) {
        index[slots[Int(slot)].key] = nil
        unlink(slot)
        slots[Int(slot)].key = ""
        slots[Int(slot)].newer = free
        free = slot
    }

    mutating func unlink(_ slot: Int32) {
        let (newer, older) = (slots[Int(slot)].newer, slots[Int(slot)].older)
        if newer == Self.none { newest = older } else { slots[Int(newer)].older = older }
        if older == Self.none { oldest = newer } else { slots[Int(older)].newer = newer }
        slots[Int(slot)].newer = Self.none
        slots[Int(slot)].older = Self.none
    }

    mutating func pushNewest(_ slot: Int32) {
        slots[Int(slot)].older = newest
        slots[Int(slot)].newer = Self.none
        if newest != Self.none { slots[Int(newest)].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }
}
