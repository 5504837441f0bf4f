import Foundation
import NIOCore
import NIOPosix

/// A client connection that writes exact bytes and reads HTTP/1.1 responses off the wire, for framing
/// tests an HTTP client library would refuse to send (a TRACE with a body, two Content-Lengths, bare LF).
public actor RawHTTPConnection {
    /// One response as it arrived.
    public struct Response: Sendable {
        public var status: Int
        /// Header fields in order, names as sent.
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        /// The first value of a header, by case-insensitive name.
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a loosely typed JSON object.
        public var object: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }

        /// The problem's `code`, when the body is an RFC 9457 problem.
        public var problemCode: String? { object["code"] as? String }
    }

    public enum RawHTTPError: Error {
        case timedOut
        case malformedResponse(String)
    }

    private enum Event: Sendable {
        case bytes(ByteBuffer)
        case closed
        case timedOut(Int)
    }

    private let channel: any Channel
    private let continuation: AsyncStream<Event>.Continuation
    private var events: AsyncStream<Event>.Iterator
    private var received: [UInt8] = []
    private var peerClosed = false
    private var waits = 0

    /// Connects to `host:port` (loopback by default), from `source` when given: another loopback address
    /// (127.0.0.2, ...; Linux routes all of 127/8 to lo) is another client to the gateway's per-address counts.
    public static func connect(port: Int, host: String = "127.0.0.1", from source: String? = nil) async throws
        -> RawHTTPConnection
    {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Collector(continuation: continuation))
                }
            }
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel = try await bootstrap.connect(host: host, port: port).get()
        return RawHTTPConnection(channel: channel, continuation: continuation, events: stream.makeAsyncIterator())
    }

    private init(
        channel: any Channel, continuation: AsyncStream<Event>.Continuation, events: AsyncStream<Event>.Iterator
    ) {
        self.channel = channel
        self.continuation = continuation
        self.events = events
    }

    /// Writes `text`'s UTF-8 bytes exactly as given.
    public func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    public func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// Reads the next response (interim 1xx ones skipped); `nil` when the peer closed before one began.
    /// `toHEAD` says the request was a HEAD, whose response has no body whatever its headers say.
    public func response(toHEAD: Bool = false, timeout: Duration = .seconds(10)) async throws -> Response? {
        let deadline = startTimer(timeout)
        while true {
            guard let headEnd = find([13, 10, 13, 10]) else {
                if try await !receiveMore(deadline) { return nil }
                continue
            }
            let head = String(decoding: received[..<headEnd], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
            guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
                throw RawHTTPError.malformedResponse(head)
            }
            let headers = lines.map { line -> (name: String, value: String) in
                let parts = line.split(separator: ":", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }
            received.removeFirst(headEnd + 4)
            var response = Response(status: status, headers: headers, body: [])
            if (100..<200).contains(status) { continue }
            if toHEAD || status == 204 || status == 304 { return response }
            if response.header("transfer-encoding")?.lowercased() == "chunked" {
                response.body = try await chunkedBody(deadline)
            } else if let length = response.header("content-length").flatMap(Int.init) {
                while received.count < length {
                    if try await !receiveMore(deadline) { throw RawHTTPError.malformedResponse("body cut short") }
                }
                response.body = Array(received[..<length])
                received.removeFirst(length)
            } else {
                while try await receiveMore(deadline) {}
                response.body = received
                received.removeAll()
            }
            return response
        }
    }

    /// Whether the peer closes the connection within `timeout` (any bytes it sends meanwhile are kept).
    public func closedByPeer(within timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = startTimer(timeout)
        do {
            while try await receiveMore(deadline) {}
            return true
        } catch {
            return false
        }
    }

    public func close() async {
        try? await channel.close()
    }

    private func chunkedBody(_ deadline: Int) async throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            guard let lineEnd = find([13, 10]) else {
                if try await !receiveMore(deadline) { throw RawHTTPError.malformedResponse("chunk cut short") }
                continue
            }
            let sizeText = String(decoding: received[..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                throw RawHTTPError.malformedResponse("chunk size \(sizeText)")
            }
            while received.count < lineEnd + 2 + size + 2 {
                if try await !receiveMore(deadline) { throw RawHTTPError.malformedResponse("chunk cut short") }
            }
            if size == 0 {
                // No trailers from the gateway: the last chunk is followed by one empty line.
                received.removeFirst(lineEnd + 4)
                return body
            }
            body += received[(lineEnd + 2)..<(lineEnd + 2 + size)]
            received.removeFirst(lineEnd + 2 + size + 2)
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard received.count >= pattern.count else { return nil }
        for start in 0...(received.count - pattern.count)
        where received[start] == pattern[0] && Array(received[start..<(start + pattern.count)]) == pattern {
            return start
        }
        return nil
    }

    /// Starts a timer for one read; its id tells a stale timer from the current one.
    private func startTimer(_ timeout: Duration) -> Int {
        waits += 1
        let id = waits
        let continuation = continuation
        Task {
            try? await Task.sleep(for: timeout)
            continuation.yield(.timedOut(id))
        }
        return id
    }

    /// Waits for more bytes; false once the peer has closed.
    private func receiveMore(_ deadline: Int) async throws -> Bool {
        while !peerClosed {
            var iterator = events
            let event = await iterator.next(isolation: self)
            events = iterator
            switch event {
            case .bytes(var buffer):
                received += buffer.readBytes(length: buffer.readableBytes) ?? []
                return true
            case .closed, nil:
                peerClosed = true
            case .timedOut(let id) where id == deadline:
                throw RawHTTPError.timedOut
            case .timedOut:
                continue
            }
        }
        return false
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let continuation: AsyncStream<Event>.Continuation

        init(continuation: AsyncStream<Event>.Continuation) {
            self.continuation = continuation
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(.bytes(unwrapInboundIn(data)))
        }

        func channelInactive(context: ChannelHandlerContext) {
            continuation.yield(.closed)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}

extension RawHTTPConnection {
    /// A well-formed HTTP/1.1 request's bytes: `Host`, the token, `headers`, and `Content-Length` when there
    /// is a body (or the method usually has one).
    public static func request(
        _ method: String, _ path: String, token: String? = nil, headers: [(String, String)] = [], body: [UInt8] = []
    ) -> [UInt8] {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: gateway.test\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }
}

extension TestStack {
    /// A raw connection to the gateway, from `source` when given (see ``RawHTTPConnection/connect(port:host:from:)``).
    public func rawConnection(from source: String? = nil) async throws -> RawHTTPConnection {
        try await RawHTTPConnection.connect(
            port: Int(gateway.baseURL.split(separator: ":").last ?? "") ?? 0, from: source)
    }
}
