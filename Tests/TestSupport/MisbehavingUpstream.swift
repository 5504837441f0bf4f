import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An upstream that misbehaves on purpose, for the gateway's failure paths. It records every request it
/// parsed, so a test can prove what reached a service (and that nothing smuggled did).
public final class MisbehavingUpstream: Sendable {
    public enum Behaviour: Sendable {
        /// Answers the first request of each connection (keeping it alive), then closes the connection
        /// when the next request arrives, as a server whose idle timeout fired just then would.
        case closeSecondRequestOnEachConnection
        /// Closes its first connection at the end of the first request, unanswered, as a replica that is stopping
        /// would; answers every request on later connections.
        case closeFirstConnectionUnanswered
        /// Reads requests and never answers.
        case neverAnswer
        /// A well-behaved service: answers each request after its body with what it saw (as JSON: `method`,
        /// `uri`, `authorization`, `bodyBytes`).
        case echo
        /// Answers `status` as soon as the head arrives, before reading the body, as a service refusing an
        /// upload would; then either reads the rest of the body and keeps the connection, or closes it.
        case answerBeforeBody(status: Int, closing: Bool)
        /// Answers each request 200 with these header fields added, as a service that sends its own request
        /// id or hop-by-hop fields would.
        case answerWithHeaders([(String, String)])
        /// Answers each request head with exactly these bytes (no HTTP encoder: chunked, unframed, interim or
        /// not HTTP at all), closing the connection after each answer when `closing`. Request bodies are not read.
        case answerRaw(String, closing: Bool)
    }

    /// A request as the upstream parsed it.
    public struct Recorded: Sendable, Equatable {
        public var method: String
        public var uri: String
        public var authorization: String?
        /// Which accepted connection it came on (1 is the first).
        public var connection: Int
    }

    private let channel: any Channel
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let state = Mutex((connections: 0, requests: [Recorded]()))
    /// How many connections were accepted.
    public var connectionCount: Int { state.withLock { $0.connections } }
    /// Every request head parsed so far, in order.
    public var requests: [Recorded] { state.withLock { $0.requests } }

    public static func start(_ behaviour: Behaviour) async throws -> MisbehavingUpstream {
        let box = LateBinding<MisbehavingUpstream>()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let number = box.value?.state.withLock {
                    $0.connections += 1
                    return $0.connections
                }
                return channel.eventLoop.makeCompletedFuture {
                    if case .answerRaw(let answer, let closing) = behaviour {
                        try channel.pipeline.syncOperations.addHandler(RawHandler(answer: answer, closing: closing))
                        return
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(
                        Handler(behaviour: behaviour, connection: number ?? 0, upstream: box))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = MisbehavingUpstream(channel: channel)
        box.value = upstream
        return upstream
    }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    public func stop() async {
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let behaviour: Behaviour
        let connection: Int
        let upstream: LateBinding<MisbehavingUpstream>
        var requests = 0
        var current: Recorded?
        var bodyBytes = 0
        var answered = false

        init(behaviour: Behaviour, connection: Int, upstream: LateBinding<MisbehavingUpstream>) {
            self.behaviour = behaviour
            self.connection = connection
            self.upstream = upstream
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head):
                let recorded = Recorded(
                    method: head.method.rawValue, uri: head.uri,
                    authorization: head.headers.first(name: "authorization"),
                    connection: connection)
                upstream.value?.state.withLock { $0.requests.append(recorded) }
                current = recorded
                bodyBytes = 0
                answered = false
                if case .answerBeforeBody(let status, let closing) = behaviour {
                    answered = true
                    answer(context, status: status, json: ["uri": head.uri], closing: closing)
                }
            case .body(let body):
                bodyBytes += body.readableBytes
            case .end:
                requests += 1
                switch behaviour {
                case .neverAnswer, .answerBeforeBody, .answerRaw:
                    return
                case .answerWithHeaders(let fields):
                    answer(context, status: 200, json: ["ok": true], closing: false, extraHeaders: fields)
                case .closeSecondRequestOnEachConnection where requests > 1:
                    context.close(promise: nil)
                case .closeSecondRequestOnEachConnection:
                    answer(context, status: 200, json: ["ok": true], closing: false)
                case .closeFirstConnectionUnanswered where connection == 1:
                    context.close(promise: nil)
                case .closeFirstConnectionUnanswered:
                    answer(context, status: 200, json: ["ok": true], closing: false)
                case .echo:
                    answer(
                        context, status: 200,
                        json: [
                            "method": current?.method ?? "", "uri": current?.uri ?? "",
                            "authorization": current?.authorization ?? "", "bodyBytes": bodyBytes,
                        ], closing: false)
                }
            }
        }

        func answer(
            _ context: ChannelHandlerContext, status: Int, json: [String: any Sendable], closing: Bool,
            extraHeaders: [(String, String)] = []
        ) {
            let body = ByteBuffer(bytes: (try? JSONSerialization.data(withJSONObject: json)) ?? Data())
            var headers: HTTPHeaders = [
                "content-type": "application/json", "content-length": String(body.readableBytes),
            ]
            if closing { headers.add(name: "connection", value: "close") }
            headers.add(contentsOf: extraHeaders)
            let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: status), headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
            let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if closing {
                let channel = context.channel
                written.whenComplete { _ in channel.close(promise: nil) }
            }
        }
    }

    /// Answers once per request head (bodies are not expected: the tests send none).
    private final class RawHandler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let answer: String
        let closing: Bool
        var received: [UInt8] = []

        init(answer: String, closing: Bool) {
            self.answer = answer
            self.closing = closing
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += unwrapInboundIn(data).readableBytesView
            while let end = headEnd() {
                received.removeFirst(end)
                let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)))
                if closing {
                    let channel = context.channel
                    written.whenComplete { _ in channel.close(promise: nil) }
                    return
                }
            }
        }

        func headEnd() -> Int? {
            guard received.count >= 4 else { return nil }
            for index in 3..<received.count
            where received[index - 3] == 13 && received[index - 2] == 10 && received[index - 1] == 13
                && received[index] == 10
            {
                return index + 1
            }
            return nil
        }
    }
}
