import Foundation
import PlatformKit
import TestSupport
import Testing

/// The token buckets, their memory bound and what eviction keeps (issue 41).
@Suite struct RateLimiterTests {
    @Test func aBucketEmptiesAndRefillsWithTheClock() {
        let clock = ManualClock()
        let limiter = RateLimiter(capacity: 2, period: 60, clock: clock.wallClock)
        #expect(limiter.acquire("k") == nil)
        #expect(limiter.acquire("k") == nil)
        #expect(limiter.acquire("k") == 30)
        #expect(limiter.acquire("other") == nil, "keys are independent")
        clock.advance(by: 30)
        #expect(limiter.acquire("k") == nil)
        #expect(limiter.acquire("k") != nil)
    }

    @Test func checkingDoesNotConsumeButRecordingDoes() {
        let limiter = RateLimiter(capacity: 1, period: 60, clock: ManualClock().wallClock)
        #expect(limiter.retryAfter("k") == nil)
        #expect(limiter.retryAfter("k") == nil)
        limiter.record("k")
        #expect(limiter.retryAfter("k") != nil)
        #expect(throws: Problem.self) { try limiter.enforce("k") }
    }

    @Test func aMillionDistinctKeysStayWithinTheBoundAndRecentKeysKeepTheirLimits() {
        // given: one token an hour per key, at most 1,000 buckets, and a victim that has spent its token (a long
        // key, kept as its digest)
        let limiter = RateLimiter(capacity: 1, period: 3600, clock: ManualClock().wallClock, maximumKeys: 1_000)
        let victim = String(repeating: "v", count: 200) + "@example.com"
        #expect(limiter.acquire(victim) == nil)
        // when: a million other keys spend theirs, the victim trying again after every 500 of them
        var largest = 0
        var refusedNewKeys = 0
        var victimAllowed = 0
        for n in 0..<1_000_000 {
            if limiter.acquire("k\(n)") != nil { refusedNewKeys += 1 }
            if n % 500 == 499, limiter.acquire(victim) == nil { victimAllowed += 1 }
            largest = max(largest, limiter.storedKeys)
        }
        // then: never more than 1,000 buckets; recently used keys are still limited
        #expect(largest == 1_000)
        #expect(refusedNewKeys == 0)
        #expect(victimAllowed == 0, "a key used within the last 1,000 keeps its bucket")
        #expect((999_500..<1_000_000).allSatisfy { limiter.acquire("k\($0)") != nil })
        // the price of the bound: a key unused for 1,000 others is forgotten
        #expect(limiter.acquire("k0") == nil)
    }

    @Test func evictionTakesARefilledBucketBeforeTheLeastRecentlyUsedOne() {
        // given: a victim that spent both its tokens (a minute to refill), then two keys that spent one (30 s)
        let clock = ManualClock()
        let limiter = RateLimiter(capacity: 2, period: 60, clock: clock.wallClock, maximumKeys: 3)
        #expect(limiter.acquire("victim") == nil)
        #expect(limiter.acquire("victim") == nil)
        #expect(limiter.acquire("a") == nil)
        #expect(limiter.acquire("b") == nil)
        clock.advance(by: 40)
        // when: a new key needs a slot
        #expect(limiter.acquire("c") == nil)
        // then: `a`, refilled, made room; the victim's bucket was kept (one token back after 40 s, not two)
        #expect(limiter.storedKeys == 3)
        #expect(limiter.acquire("victim") == nil)
        #expect(limiter.acquire("victim") != nil)
    }

    @Test func fullBucketsAreNotKept() {
        let clock = ManualClock()
        let limiter = RateLimiter(capacity: 2, period: 60, clock: clock.wallClock)
        // when: keys are only checked, or spent and then refilled
        for n in 0..<100 { #expect(limiter.retryAfter("k\(n)") == nil) }
        #expect(limiter.acquire("spent") == nil)
        #expect(limiter.storedKeys == 1)
        clock.advance(by: 30)
        #expect(limiter.retryAfter("spent") == nil)
        // then: nothing is kept
        #expect(limiter.storedKeys == 0)
    }
}
