import Foundation
import Synchronization

/// A token bucket per key (an account, a client address): `capacity` requests at once, refilled evenly
/// over `period`. Lives in memory, per process; the clock is injected so tests control time.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Date
    }

    private let capacity: Double
    private let refillPerSecond: Double
    private let clock: WallClock
    private let buckets = Mutex<[String: Bucket]>([:])
    private let maximumKeys: Int

    /// A limiter allowing `capacity` requests per `period` seconds per key.
    public init(capacity: Int, period: TimeInterval, clock: WallClock = .system, maximumKeys: Int = 100_000) {
        self.capacity = Double(capacity)
        self.refillPerSecond = Double(capacity) / period
        self.clock = clock
        self.maximumKeys = maximumKeys
    }

    /// Takes one token for `key`; returns `nil` when allowed, else the seconds until one is available.
    public func acquire(_ key: String) -> Int? {
        update(key) { bucket in
            guard bucket.tokens >= 1 else { return false }
            bucket.tokens -= 1
            return true
        }
    }

    /// The seconds until `key` may try again, without taking a token; `nil` when it may now.
    public func retryAfter(_ key: String) -> Int? {
        update(key) { bucket in bucket.tokens >= 1 }
    }

    /// Takes one token for `key` even when none is left (for counting failures after the fact).
    public func record(_ key: String) {
        _ = update(key) { bucket in
            bucket.tokens = max(0, bucket.tokens - 1)
            return true
        }
    }

    /// Same as ``acquire(_:)`` but throws a 429 ``Problem`` when the key is over its limit.
    public func enforce(_ key: String, _ detail: String = "Too many attempts; try again later.") throws {
        if let seconds = acquire(key) { throw Problem.tooManyRequests(retryAfter: seconds, detail) }
    }

    private func update(_ key: String, _ body: (inout Bucket) -> Bool) -> Int? {
        let now = clock.now
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updatedAt: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updatedAt))
            bucket.tokens = min(capacity, bucket.tokens + elapsed * refillPerSecond)
            bucket.updatedAt = now
            let allowed = body(&bucket)
            if buckets.count >= maximumKeys, buckets[key] == nil {
                // Full buckets carry no information; dropping them bounds memory under a flood of keys.
                buckets = buckets.filter { $0.value.tokens < capacity }
            }
            buckets[key] = bucket
            return allowed ? nil : Int(((1 - bucket.tokens) / refillPerSecond).rounded(.up))
        }
    }
}
