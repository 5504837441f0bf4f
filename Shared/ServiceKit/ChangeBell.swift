import ServiceLifecycle
import Synchronization

/// Wakes a feed's long polls when something they report was written, in this process (identity's ended
/// sessions, social's relationship changes).
///
/// A poll reads ``generation`` before it queries, then waits only if no ring came since, so a change
/// written between its query and its wait is not slept through.
public final class ChangeBell: Sendable {
    private struct State {
        var generation: UInt64 = 0
        var nextWaiter = 0
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// A bell nobody has rung.
    public init() {}

    /// Rings so far; pass it to ``wait(after:timeout:)``.
    public var generation: UInt64 { state.withLock { $0.generation } }

    /// Wakes every waiting poll.
    public func ring() {
        let waiters = state.withLock { state in
            state.generation &+= 1
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns after the next ring following `generation`, after `timeout`, or on cancellation.
    public func wait(after generation: UInt64, timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForRing(after: generation) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Answers a long poll: reads at once, and when nothing came after the poller's sequence, reads again after
    /// the next ring, the poll's wait, or graceful shutdown (which must not wait for a whole poll).
    public func answer<Page>(
        _ query: LongPollQuery, read: () async throws -> Page, isEmpty: (Page) -> Bool
    ) async throws -> Page {
        let generation = self.generation
        let page = try await read()
        guard query.after != nil, isEmpty(page), query.wait > 0 else { return page }
        await cancelWhenGracefulShutdown {
            await self.wait(after: generation, timeout: .seconds(query.wait))
        }
        return try await read()
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
