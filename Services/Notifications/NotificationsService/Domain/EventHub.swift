import Foundation
import Synchronization

/// Hands each stored stream event to the live connections of its recipient, in the order they were stored, and
/// ends the connections of a session that ended.
///
/// Every connection has its own bounded buffer. A connection that falls that far behind is closed rather
/// than silently skipped: its client reconnects with `Last-Event-ID` and misses nothing.
final class EventHub: Sendable {
    enum Item: Sendable {
        case event(StreamEvent)
        case heartbeat
        /// The connection's session ended or its access token expired: the stream says so and closes.
        case ended(StreamEnd)
    }

    /// One live connection's view of the hub.
    struct Subscription: Sendable {
        let id: Int
        let items: AsyncStream<Item>
        let continuation: AsyncStream<Item>.Continuation
    }

    private struct Connection {
        let userID: String
        let sessionID: String
        /// The `Last-Event-ID` it resumed after: its stream sends from the log what came after, and skips what it
        /// already sent.
        let resumedAfter: Int64?
        let continuation: AsyncStream<Item>.Continuation
    }

    private struct State {
        var nextID = 0
        var connections: [Int: Connection] = [:]
        /// Connection ids by recipient (publishing) and by session (ending a session in O(1)).
        var byUser: [String: Set<Int>] = [:]
        var bySession: [String: Set<Int>] = [:]
        /// The highest sequence number handed to each connected user, for a feed that reads what to hand on from
        /// the database (``resumePoints(_:)``); forgotten with the user's last connection.
        var delivered: [String: Int64] = [:]
        var isShutDown = false

        mutating func remove(_ id: Int) {
            guard let connection = connections.removeValue(forKey: id) else { return }
            byUser[connection.userID]?.remove(id)
            if byUser[connection.userID]?.isEmpty == true {
                byUser[connection.userID] = nil
                delivered[connection.userID] = nil
            }
            bySession[connection.sessionID]?.remove(id)
            if bySession[connection.sessionID]?.isEmpty == true { bySession[connection.sessionID] = nil }
        }

        /// Where a feed picks up for `user`: the highest number handed on, else, when every connection of theirs
        /// resumed after a known number, the lowest of those (each skips what it already sent); `nil` otherwise.
        func resumePoint(_ user: String) -> Int64? {
            if let handed = delivered[user] { return handed }
            var lowest: Int64?
            for id in byUser[user] ?? [] {
                guard let after = connections[id]?.resumedAfter else { return nil }
                lowest = min(lowest ?? after, after)
            }
            return lowest
        }
    }

    private let state = Mutex(State())
    private let bufferLimit: Int

    init(bufferLimit: Int = 1_000) {
        self.bufferLimit = bufferLimit
    }

    /// A new connection for `userID` signed in with `sessionID`, resuming after `resumedAfter` when its client gave a
    /// `Last-Event-ID`; it ends when the hub shuts down, the buffer overflows, the session ends (``endSessions(_:)``)
    /// or the caller stops.
    func subscribe(_ userID: String, session sessionID: String, resumedAfter: Int64? = nil) -> Subscription {
        let (items, continuation) = AsyncStream.makeStream(
            of: Item.self, bufferingPolicy: .bufferingOldest(bufferLimit))
        let id = state.withLock { state -> Int in
            state.nextID += 1
            if state.isShutDown {
                continuation.finish()
            } else {
                state.connections[state.nextID] = Connection(
                    userID: userID, sessionID: sessionID, resumedAfter: resumedAfter, continuation: continuation)
                state.byUser[userID, default: []].insert(state.nextID)
                state.bySession[sessionID, default: []].insert(state.nextID)
            }
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return Subscription(id: id, items: items, continuation: continuation)
    }

    /// Delivers `event` to its recipient's connections. Called in each recipient's sequence order, by one caller at
    /// a time (SQLite's writer, or PostgreSQL's feed). A full buffer refuses the newest event (keeping the ones
    /// before it), so the client's last id stays before the gap.
    func publish(_ event: StreamEvent) {
        let targets = state.withLock { state in
            guard let ids = state.byUser[event.recipientID] else { return [AsyncStream<Item>.Continuation]() }
            state.delivered[event.recipientID] = max(state.delivered[event.recipientID] ?? 0, event.seq)
            return ids.compactMap { state.connections[$0]?.continuation }
        }
        for continuation in targets {
            if case .dropped = continuation.yield(.event(event)) {
                continuation.finish()
            }
        }
    }

    /// Ends every connection of these sessions: each is told why (after what it already holds) and closes.
    func endSessions(_ sessionIDs: some Sequence<String>) {
        let targets = state.withLock { state in
            sessionIDs.flatMap { (state.bySession[$0] ?? []).compactMap { state.connections[$0]?.continuation } }
        }
        for continuation in targets {
            continuation.yield(.ended(.sessionEnded))
            continuation.finish()
        }
    }

    /// Those of `users` with a connection here, each with where a feed reading from the database picks up for them:
    /// the highest sequence number handed to them so far, or the lowest their resumed connections started after
    /// (`nil` while some connection has been handed nothing and resumed after nothing known).
    func resumePoints(_ users: some Sequence<String>) -> [(user: String, delivered: Int64?)] {
        state.withLock { state in
            users.compactMap { user in state.byUser[user] == nil ? nil : (user, state.resumePoint(user)) }
        }
    }

    /// Every user with a connection here, as ``resumePoints(_:)`` gives them.
    func connectedUsers() -> [(user: String, delivered: Int64?)] {
        state.withLock { state in state.byUser.keys.map { ($0, state.resumePoint($0)) } }
    }

    /// Closes `users`' connections without a word, as a connection that fell behind is closed: their clients
    /// reconnect with `Last-Event-ID` and miss nothing (for events this process can no longer tell were handed on).
    func disconnect(_ users: some Sequence<String>) {
        let targets = state.withLock { state in
            users.flatMap { (state.byUser[$0] ?? []).compactMap { state.connections[$0]?.continuation } }
        }
        for continuation in targets { continuation.finish() }
    }

    /// How many connections are open (metrics, tests).
    var connectionCount: Int {
        state.withLock { $0.connections.count }
    }

    /// Ends every connection and refuses new ones: the server is shutting down.
    func shutDown() {
        let all = state.withLock { state -> [AsyncStream<Item>.Continuation] in
            state.isShutDown = true
            defer { state = State(nextID: state.nextID, isShutDown: true) }
            return state.connections.values.map(\.continuation)
        }
        for continuation in all { continuation.finish() }
    }

    private func remove(_ id: Int) {
        state.withLock { $0.remove(id) }
    }
}

/// Why the stream ended a connection on its own: the client must get a new access token before it reconnects.
enum StreamEnd: String, Sendable {
    /// The session was signed out, revoked or ended by a password change or reset: sign in again.
    case sessionEnded = "session_ended"
    /// The access token the stream was opened with expired: refresh it and reconnect with `Last-Event-ID`.
    case tokenExpired = "token_expired"
}
