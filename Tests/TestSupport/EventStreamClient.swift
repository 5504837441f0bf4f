import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A Server-Sent Events client for tests: it connects, parses the stream, and hands out events and comments
/// in the order they arrived.
public final class EventStreamClient: Sendable {
    /// One dispatched event, or one comment line (`comment` set, the rest nil).
    public struct Message: Sendable, Equatable {
        public var id: String?
        public var event: String?
        public var data: String?
        public var comment: String?

        /// The data decoded as a JSON object.
        public var object: [String: Any] {
            data.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any] ?? [:]
        }
    }

    public enum StreamError: Error {
        case timedOut
        case ended
    }

    public let status: Int
    public let headers: HTTPHeaders
    private let state = Mutex(State())
    private let reader = Mutex<Task<Void, Never>?>(nil)

    private struct State {
        var buffer: [Message] = []
        var waiter: (id: Int, continuation: CheckedContinuation<Message?, Never>)?
        var nextWaiterID = 0
        var ended = false
    }

    private init(status: Int, headers: HTTPHeaders) {
        self.status = status
        self.headers = headers
    }

    /// Opens `url` with a bearer token and, when given, `Last-Event-ID`.
    public static func connect(_ url: String, token: String?, lastEventID: String? = nil) async throws
        -> EventStreamClient
    {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "text/event-stream")
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let lastEventID { request.headers.add(name: "Last-Event-ID", value: lastEventID) }
        let response = try await HTTPClient.shared.execute(request, deadline: .now() + .minutes(10))
        let client = EventStreamClient(status: Int(response.status.code), headers: response.headers)
        client.reader.withLock {
            $0 = Task {
                var parser = Parser()
                do {
                    for try await chunk in response.body {
                        for message in parser.feed(chunk) { client.deliver(message) }
                    }
                } catch {}
                client.end()
            }
        }
        return client
    }

    /// The next event, skipping comments (heartbeats).
    public func nextEvent(within timeout: Duration = .seconds(10)) async throws -> Message {
        while true {
            let message = try await nextMessage(within: timeout)
            if message.comment == nil { return message }
        }
    }

    /// The next event or comment.
    public func nextMessage(within timeout: Duration = .seconds(10)) async throws -> Message {
        let message: Message? = await withCheckedContinuation { continuation in
            let waiterID = state.withLock { state -> Int? in
                if !state.buffer.isEmpty {
                    continuation.resume(returning: state.buffer.removeFirst())
                    return nil
                }
                if state.ended {
                    continuation.resume(returning: nil)
                    return nil
                }
                state.nextWaiterID += 1
                state.waiter = (state.nextWaiterID, continuation)
                return state.nextWaiterID
            }
            if let waiterID {
                Task {
                    try? await Task.sleep(for: timeout)
                    self.state.withLock { state in
                        if let waiter = state.waiter, waiter.id == waiterID {
                            state.waiter = nil
                            waiter.continuation.resume(returning: nil)
                        }
                    }
                }
            }
        }
        if let message { return message }
        throw state.withLock { $0.ended && $0.buffer.isEmpty } ? StreamError.ended : StreamError.timedOut
    }

    /// Waits until the server ends the stream, failing if an event arrives first.
    public func waitForEnd(within timeout: Duration = .seconds(10)) async throws -> [Message] {
        var received: [Message] = []
        while true {
            do {
                received.append(try await nextMessage(within: timeout))
            } catch StreamError.ended {
                return received
            }
        }
    }

    /// Closes the connection.
    public func close() {
        reader.withLock { $0?.cancel() }
    }

    private func deliver(_ message: Message) {
        state.withLock { state in
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.continuation.resume(returning: message)
            } else {
                state.buffer.append(message)
            }
        }
    }

    private func end() {
        state.withLock { state in
            state.ended = true
            if let waiter = state.waiter {
                state.waiter = nil
                waiter.continuation.resume(returning: state.buffer.isEmpty ? nil : state.buffer.removeFirst())
            }
        }
    }

    /// The `text/event-stream` line protocol: fields accumulate until a blank line dispatches them.
    struct Parser {
        var pending = [UInt8]()
        var current = Message()
        var hasField = false

        mutating func feed(_ chunk: ByteBuffer) -> [Message] {
            pending += chunk.readableBytesView
            var messages: [Message] = []
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                if line.isEmpty {
                    if hasField { messages.append(current) }
                    current = Message()
                    hasField = false
                } else if line.hasPrefix(":") {
                    messages.append(Message(comment: line.dropFirst().trimmingCharacters(in: .whitespaces)))
                } else {
                    let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                    let value = parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""
                    switch parts[0] {
                    case "id": current.id = value
                    case "event": current.event = value
                    case "data": current.data = current.data.map { $0 + "\n" + value } ?? value
                    default: continue
                    }
                    hasField = true
                }
            }
            return messages
        }
    }
}
