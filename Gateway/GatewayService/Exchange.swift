import NIOCore
import NIOHTTP1
import PlatformKit
import Tracing

extension GatewayHandler {
    /// One request on its way through the gateway. A class: the handler reads and updates it on every
    /// callback, and copying a struct of this size cost ~5% of the gateway's CPU in retains and releases.
    ///
    /// Its upstream leg is one ``Leg``: connecting -> requesting -> responding, and back to connecting when a
    /// connection closes unanswered and the request is sent again (``replayOnNewConnection()``).
    final class Exchange {
        let id: Int
        let service: ServiceName
        let upstream: GatewayConfiguration.Upstream
        let requestID: String
        let startedAt: NIODeadline
        let method: HTTPMethod
        /// The client keeps the connection after this exchange (cleared when the answer runs until its close).
        var keepAlive: Bool
        let version: HTTPVersion
        /// How the forwarded request's body is framed: a chunked body is chunked again by the gateway.
        let framing: RequestFraming.Body
        /// The forwarded request head, written first on every connection the exchange is attached to. Kept apart
        /// from the body's parts so a request without a body allocates no arrays for them.
        let head: ByteBuffer
        /// The client's request has ended (its response may still be on its way).
        var requestComplete = false
        var bodyBytes = 0
        /// Body bytes not yet written upstream (while ``Leg/connecting``). Kept out of the enum: appending to an
        /// array held in an associated value would copy it.
        var pending: [ByteBuffer] = []
        /// The body's parts so far, kept until the response head arrives, to retry once on a fresh connection
        /// when a pooled one turns out to be closed; `nil` once the body grows past `retryLimit`, and from the start
        /// for a request that must not run twice (see ``GatewayHandler/isReplayable(_:)``).
        var replay: [ByteBuffer]?
        /// How many times the request was sent again after a connection closed without answering.
        var replays = 0
        /// When the service must have sent the response head; set once the request is on its way.
        var headDeadline: NIODeadline?
        var leg = Leg.connecting
        /// Back-pressure on the service's connection. Not part of ``leg``: either flag may be set in any leg that
        /// has a connection, independently of the other.
        var upstreamReadsPaused = false
        /// Bytes were written to the service since the last flush.
        var upstreamNeedsFlush = false
        /// The gateway's span for this exchange, when a tracer is configured.
        let span: (any Tracing.Span)?
        static let retryLimit = 64 << 10

        /// Where the exchange is with its service.
        enum Leg {
            /// No connection yet: the token is checked or a connection opens; body parts wait in ``pending``.
            case connecting
            /// The request goes out on the connection, no answer yet. `reused`: it came from the pool (the service
            /// may have closed it meanwhile, which says nothing about the replica).
            case requesting(UpstreamConnection, reused: Bool)
            /// The answer's head has gone to the client; its body follows.
            case responding(UpstreamConnection, Response)
        }

        /// What the service's answer head said, and what the client sent after it.
        struct Response {
            var status: Int
            /// The answer's end is known from its own framing (not read until the connection closes).
            var framed: Bool
            /// The service's body runs until it closes or is chunked; the client gets it chunked again (HTTP/1.1)
            /// or until the gateway closes (HTTP/1.0).
            var chunkedForClient: Bool
            /// Some of the request body was not forwarded because the service had already answered.
            var bodyDropped = false
        }

        init(
            id: Int, service: ServiceName, upstream: GatewayConfiguration.Upstream, requestID: String,
            startedAt: NIODeadline, method: HTTPMethod, keepAlive: Bool, version: HTTPVersion,
            framing: RequestFraming.Body, head: ByteBuffer, replayable: Bool, span: (any Tracing.Span)?
        ) {
            self.id = id
            self.service = service
            self.upstream = upstream
            self.requestID = requestID
            self.startedAt = startedAt
            self.method = method
            self.keepAlive = keepAlive
            self.version = version
            self.framing = framing
            self.head = head
            self.replay = replayable ? [] : nil
            self.span = span
        }

        var connection: UpstreamConnection? {
            switch leg {
            case .connecting: nil
            case .requesting(let connection, _), .responding(let connection, _): connection
            }
        }

        var channel: (any Channel)? { connection?.channel }

        /// The service's answer, once its head has gone to the client.
        var response: Response? {
            if case .responding(_, let response) = leg { response } else { nil }
        }

        var responseStarted: Bool { response != nil }

        /// The status the client got from the service; 0 before its answer.
        var responseStatus: Int { response?.status ?? 0 }

        // MARK: Transitions of the upstream leg

        /// connecting -> requesting: the request goes out on `connection`; what waited is handed back to be written.
        func attach(_ connection: UpstreamConnection, reused: Bool) -> [ByteBuffer] {
            let waiting = pending
            leg = .requesting(connection, reused: reused)
            pending = []
            return waiting
        }

        /// requesting -> responding: the answer's head is relayed; the body is no longer kept for a retry.
        func beginResponse(_ response: Response) {
            guard let connection else { return }
            replay = nil
            leg = .responding(connection, response)
        }

        /// requesting -> connecting: the connection closed unanswered; the request goes out again on a new one.
        func replayOnNewConnection() {
            replays += 1
            leg = .connecting
            headDeadline = nil
            pending = replay ?? []
        }

        /// Notes that the client sent more after the answer began (the connection cannot be pooled again).
        func dropBody() {
            guard case .responding(let connection, var response) = leg else { return }
            response.bodyDropped = true
            leg = .responding(connection, response)
        }

        /// Flushes what was written to the service, if anything.
        func flushUpstream() {
            guard upstreamNeedsFlush else { return }
            upstreamNeedsFlush = false
            channel?.flush()
        }
    }
}
