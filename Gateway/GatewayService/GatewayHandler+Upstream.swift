import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit
import Tracing

/// The forwarded request's headers, and the service's side of an exchange.
extension GatewayHandler {
    /// The request as the service sees it: hop-by-hop, framing and spoofable headers dropped, our own added.
    /// The gateway frames the body itself (the encoder's automatic framing is off, see ``UpstreamPool``):
    /// `content-length` for a body of known length, `chunked` that the encoder writes, nothing without a body.
    /// With a tracer, also the gateway's span for the exchange (see ``traceContext(_:service:into:)``).
    func forwardedHead(_ head: HTTPRequestHead, framing: RequestFraming.Body, requestID: String, service: ServiceName)
        -> (HTTPRequestHead, (any Tracing.Span)?)
    {
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count + 5)
        for (name, value) in head.headers where !Self.isDroppedRequestHeader(name) {
            headers.add(name: name, value: value)
        }
        switch framing {
        case .none: break
        case .length(let length): headers.add(name: "content-length", value: String(length))
        case .chunked: headers.add(name: "transfer-encoding", value: "chunked")
        }
        headers.add(name: PlatformHeaders.requestID, value: requestID)
        headers.add(name: PlatformHeaders.forwardedFor, value: clientAddress)
        let span = traceContext(head, service: service, into: &headers)
        return (HTTPRequestHead(version: .http1_1, method: head.method, uri: head.uri, headers: headers), span)
    }

    /// Request headers that stop here: hop-by-hop ones, the client's framing (the gateway writes its own),
    /// the platform's own (a client could spoof them), `expect` (the gateway reads the body itself; a
    /// service's interim 100 must not reach the client), and the trace context (the gateway writes its own,
    /// see ``traceContext(_:service:into:)``). Compared without allocating, by length first.
    static func isDroppedRequestHeader(_ name: String) -> Bool {
        switch name.utf8.count {
        case 2: HeaderName.matches(name, "te")
        case 6: HeaderName.matches(name, "expect")
        case 7: HeaderName.matches(name, "trailer") || HeaderName.matches(name, "upgrade")
        case 10:
            HeaderName.matches(name, "connection") || HeaderName.matches(name, "keep-alive")
                || HeaderName.matches(name, "tracestate")
        case 11: HeaderName.matches(name, "traceparent")
        case 12: HeaderName.matches(name, "x-request-id")
        case 14: HeaderName.matches(name, "content-length")
        case 15: HeaderName.matches(name, "x-forwarded-for")
        case 16: HeaderName.matches(name, "x-internal-token") || HeaderName.matches(name, "proxy-connection")
        case 17: HeaderName.matches(name, "transfer-encoding")
        default: false
        }
    }

    /// The client's request id when it is short and plain, else a new one.
    static func requestID(from headers: HTTPHeaders) -> String {
        if let given = headers.first(name: PlatformHeaders.requestID), (8...64).contains(given.utf8.count),
            given.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122)
            })
        {
            return given
        }
        return RequestIDs.next()
    }

    static func path(of uri: String) -> Substring {
        uri.firstIndex(of: "?").map { uri[..<$0] } ?? Substring(uri)
    }
}

extension GatewayHandler: UpstreamDelegate {
    func upstreamResponseHead(_ head: HTTPResponseHead) {
        guard let exchange else { return }
        let status = head.status.code
        // Without Content-Length or chunked framing a response runs until the connection closes; after a 101
        // NIO's decoder reads nothing more, so that connection is never pooled either.
        var framed = exchange.method == .HEAD || (status < 200 && status != 101) || status == 204 || status == 304
        // The service's head goes out as it came unless it carries hop-by-hop headers or another request id
        // (services echo the gateway's): rebuilding every head cost ~3% of the gateway's CPU.
        var rebuild = false
        var echoesRequestID = false
        for (name, value) in head.headers {
            switch name.utf8.count {
            case 10 where HeaderName.matches(name, "connection") || HeaderName.matches(name, "keep-alive"):
                rebuild = true
            case 12 where HeaderName.matches(name, "x-request-id"):
                if echoesRequestID || value != exchange.requestID { rebuild = true }
                echoesRequestID = true
            case 14 where HeaderName.matches(name, "content-length"): framed = true
            case 17 where HeaderName.matches(name, "transfer-encoding"):
                framed = framed || HeaderName.matches(RequestFraming.trimmed(value), "chunked")
            default: break
            }
        }
        var response = head
        response.version = exchange.version
        if rebuild {
            var headers = HTTPHeaders()
            headers.reserveCapacity(head.headers.count + 2)
            for (name, value) in head.headers {
                switch name.utf8.count {
                case 10 where HeaderName.matches(name, "connection") || HeaderName.matches(name, "keep-alive"): continue
                case 12 where HeaderName.matches(name, "x-request-id"): continue
                default: headers.add(name: name, value: value)
                }
            }
            headers.add(name: PlatformHeaders.requestID, value: exchange.requestID)
            response.headers = headers
        } else if !echoesRequestID {
            response.headers.add(name: PlatformHeaders.requestID, value: exchange.requestID)
        }
        if !exchange.keepAlive { response.headers.add(name: "connection", value: "close") }
        exchange.replay = nil
        exchange.responseStarted = true
        exchange.responseStatus = Int(status)
        exchange.responseFramed = framed
        context.write(wrapOutboundOut(.head(response)), promise: nil)
    }

    func upstreamResponseBody(_ body: ByteBuffer) {
        guard exchange != nil else { return }
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    }

    func upstreamReadComplete() {
        context.flush()
    }

    func upstreamResponseEnd() {
        guard exchange?.connection != nil, let exchange = takeExchange(), let connection = exchange.connection else {
            return
        }
        core.metrics.record(
            target: exchange.service.rawValue, status: exchange.responseStatus, since: exchange.startedAt)
        exchange.endSpan(status: exchange.responseStatus)
        // Pooled again only after answering one complete request, with a response that ended by its own
        // framing and keeps the connection; anything else may leave bytes of this exchange on the wire.
        if exchange.requestComplete && !exchange.bodyDropped && exchange.responseFramed
            && !connection.handler.closeAfterResponse
        {
            if exchange.upstreamReadsPaused {
                try? connection.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            }
            pool.release(connection, to: exchange.upstream)
        } else {
            // E.g. the service answered before the body ended (it refused it): the connection is mid-request.
            connection.abandon()
            discardingRequest = !exchange.requestComplete
        }
        finishResponse(keepAlive: exchange.keepAlive)
    }

    func upstreamFailed(_ error: any Error) {
        guard let exchange else { return }
        // A pooled connection the service had already closed: replay the request once on a new one.
        if exchange.reused, !exchange.responseStarted, exchange.requestComplete, let replay = exchange.replay {
            exchange.connection = nil
            exchange.reused = false
            exchange.headDeadline = nil
            exchange.pending = replay
            return connect()
        }
        failExchange(
            Problem(
                status: 502, code: "bad_gateway", title: "Bad gateway",
                detail: "The \(exchange.service.rawValue) service closed the connection without answering."))
    }

    func upstreamWritabilityChanged(isWritable: Bool) {
        // The service reads the body slowly: stop reading it from the client until it catches up.
        clientReadsPaused = !isWritable
        updateClientReads()
    }
}
