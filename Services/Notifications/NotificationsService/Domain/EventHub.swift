import Foundation
import Synchronization

/// Hands each stored stream event to the live connections of its recipient, in the order they were stored.
///
/// Every connection has its own bounded buffer. A connection that falls that far behind is closed rather
/// than silently skipped: its client reconnects with `Last-Event-ID` and misses nothing.
final class EventHub: Sendable {
    enum Item: Sendable {
        case event(StreamEvent)
        case heartbeat
    }

    /// One live connection's view of the hub.
    struct Subscription: Sendable {
        let id: Int
        let items: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
    }

    private struct State {
        var nextID = 0
        var connections: [String: [Int: AsyncStream<Item>.Continuation]] = [:]
        var isShutDown = false
    }

    private let state = Mutex(State())
    private let bufferLimit: Int

    init(bufferLimit: Int = 1_000) {
        self.bufferLimit = bufferLimit
    }

    /// A new connection for `userID`; it ends when the hub shuts down, the buffer overflows or the caller stops.
    func subscribe(_ userID: String) -> Subscription {
        let (items, continuation) = AsyncStream.makeStream(
            of: Item.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let id = state.withLock { state -> Int in
            state.nextID += 1
            if state.isShutDown {
                continuation.finish()
            } else {
                state.connections[userID, default: [:]][state.nextID] = continuation
            }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.remove(userID, id) }
        return Subscription(id: id, items: items, continuation: continuation)
    }

    /// Delivers `event` to its recipient's connections. Called in commit order, on the database's writer.
    /// A full buffer refuses the newest event (keeping the ones before it), so the client's last id stays
    /// before the gap.
    func publish(_ event: StreamEvent) {
        let targets = state.withLock { Array(($0.connections[event.recipientID] ?? [:]).values) }
        for continuation in targets {
            if case .dropped = continuation.yield(.event(event)) {
                continuation.finish()
            }
        }
    }

    /// How many connections are open (metrics, tests).
    var connectionCount: Int {
        state.withLock { $0.connections.values.reduce(0) { $0 + $1.count } }
    }

    /// Ends every connection and refuses new ones: the server is shutting down.
    func shutDown() {
        let all = state.withLock { state -> [AsyncStream<Item>.Continuation] in
            state.isShutDown = true
            defer { state.connections = [:] }
            return state.connections.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }

    private func remove(_ userID: String, _ id: Int) {
        state.withLock { state in
            state.connections[userID]?[id] = nil
            if state.connections[userID]?.isEmpty == true { state.connections[userID] = nil }
        }
    }
}
