import Foundation
import Synchronization

/// The idempotency keys of realtime events accepted lately, per producer, so a producer's retry (after a timeout
/// whose first post did arrive) reaches the live stream once. Bounded both ways: a key is forgotten after
/// `window` seconds, and the oldest keys go first once `capacity` are held. Memory only, for the SQLite store (one
/// process): a restart forgets, which at worst lets one retry through. The PostgreSQL store keeps the keys in its
/// database instead, so that a retry reaching another replica is recognised.
final class RecentEventKeys: Sendable {
    private struct State {
        var seenAt: [String: Date] = [:]
        /// Keys in the order they were first seen (oldest first); `head` skips the ones already forgotten.
        var order: [String] = []
        var head = 0
    }

    private let state = Mutex(State())
    private let capacity: Int
    private let window: TimeInterval

    /// How long a key is remembered: far longer than a producer goes on retrying.
    static let defaultWindow: TimeInterval = 15 * 60

    init(capacity: Int = 50_000, window: TimeInterval = RecentEventKeys.defaultWindow) {
        self.capacity = max(1, capacity)
        self.window = window
    }

    /// Records `key` from `producer` at `now`; `false` when it was already recorded within the window.
    func insert(_ key: String, producer: String, now: Date) -> Bool {
        let entry = "\(producer)\u{0}\(key)"
        return state.withLock { state in
            forgetExpired(&state, now: now)
            if let seen = state.seenAt[entry], now.timeIntervalSince(seen) < window { return false }
            while state.seenAt.count >= capacity, state.head < state.order.count {
                state.seenAt[state.order[state.head]] = nil
                state.head += 1
            }
            state.seenAt[entry] = now
            state.order.append(entry)
            compact(&state)
            return true
        }
    }

    /// Forgets `key`, so a retry of an event that could not be stored is accepted.
    func remove(_ key: String, producer: String) {
        _ = state.withLock { $0.seenAt.removeValue(forKey: "\(producer)\u{0}\(key)") }
    }

    /// How many keys are held (tests).
    var count: Int { state.withLock { $0.seenAt.count } }

    private func forgetExpired(_ state: inout State, now: Date) {
        while state.head < state.order.count {
            let oldest = state.order[state.head]
            // A removed key's slot is skipped; a re-inserted key's older slot waits for the newer time, so the
            // key is never forgotten early.
            if let seen = state.seenAt[oldest] {
                if now.timeIntervalSince(seen) < window { break }
                state.seenAt[oldest] = nil
            }
            state.head += 1
        }
    }

    /// Drops the consumed front of `order` once it is half the array, so memory stays bounded.
    private func compact(_ state: inout State) {
        if state.head > 1_024, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }
}
