import Synchronization

/// Wakes the revocation feed's long polls when identity ends a session, in this process.
///
/// A poll reads ``generation`` before it queries, then waits only if no ring came since, so a revocation
/// written between its query and its wait is not slept through.
final class RevocationBell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Rings so far; pass it to ``wait(after:timeout:)``.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiting poll.
    func ring() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after the next ring following `generation`, after `timeout`, or on cancellation.
    func wait(after generation: UInt64, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForRing(after: generation) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    private func waitForRing(after generation: UInt64) async {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    guard state.generation == generation, !Task.isCancelled else { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
