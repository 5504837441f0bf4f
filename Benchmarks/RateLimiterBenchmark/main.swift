// Rate limiter benchmark (issue 41): the cost of one `acquire` with 1,000 distinct keys (every key known) and with
// 1,000,000 (every key new, the table full after the first 100,000: each call evicts one), and the process's
// resident memory around each run; then the same flood into a table of 1,000. The keys are IPv6 /64 keys as the
// gateway makes them; the time to make one is measured alone and taken off.
//
//   swift run -c release RateLimiterBenchmark [calls per run] [maximum keys]
import Foundation
import PlatformKit
import Synchronization

let arguments = CommandLine.arguments.dropFirst().compactMap(Int.init)
let calls = arguments.first ?? 2_000_000
let maximumKeys = arguments.dropFirst().first ?? 100_000

/// The process's resident memory in MiB (Linux: now, from /proc/self/statm; elsewhere: the peak, from getrusage).
func residentMiB() -> Double {
    #if os(Linux)
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Double(usage.ru_maxrss) / 1_048_576
    #endif
}

let ticks = Atomic<Int>(0)

/// The /64 key of client `n`, as the gateway makes them (22-24 bytes, stored on the heap).
func key(_ n: Int) -> String {
    "2001:db8:\(String(n >> 16, radix: 16)):\(String(n & 0xffff, radix: 16))::/64"
}

@inline(never) func consume(_ key: String) -> Int { key.utf8.count }

func nanoseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func run(distinctKeys: Int, maximumKeys: Int = maximumKeys) {
    // Making a key costs about as much as the limiter: timed alone, and taken off.
    var sink = 0
    let baselineStart = ContinuousClock.now
    for call in 0..<calls { sink &+= consume(key(call % distinctKeys)) }
    let baseline = nanoseconds(ContinuousClock.now - baselineStart)
    // Cheap and steady, so the figure is the limiter's own: ten microseconds a call.
    let clock = WallClock {
        Date(timeIntervalSinceReferenceDate: Double(ticks.add(1, ordering: .relaxed).newValue) * 1e-5)
    }
    let limiter = RateLimiter(capacity: 10, period: 60, clock: clock, maximumKeys: maximumKeys)
    let before = residentMiB()
    var refused = 0
    let start = ContinuousClock.now
    for call in 0..<calls where limiter.acquire(key(call % distinctKeys)) != nil {
        refused += 1
    }
    let elapsed = nanoseconds(ContinuousClock.now - start)
    let after = residentMiB()
    print(
        String(
            format: "%9d distinct keys: %6.1f ns per call (%.1f with making the key; %d calls, %d refused, %d); "
                + "%6d buckets kept of at most %d; resident memory %.1f MiB before the run, %.1f MiB after",
            distinctKeys, (elapsed - baseline) / Double(calls), elapsed / Double(calls), calls, refused,
            sink & 1, limiter.storedKeys, maximumKeys, before, after))
}

print(String(format: "resident memory at start: %.1f MiB", residentMiB()))
run(distinctKeys: 1_000)
run(distinctKeys: 1_000_000)
// The same flood into a table small enough for the cache: what is left of the difference is memory latency.
run(distinctKeys: 1_000_000, maximumKeys: 1_000)
