import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit
import Tracing

/// The forwarded request's headers, and the service's side of an exchange.
extension GatewayHandler {
    /// The request head as the service sees it, as bytes: hop-by-hop, framing and spoofable headers dropped, our
    /// own added. The gateway frames the body itself: `content-length` for a body of known length, `chunked`
    /// (chunked again by ``send(_:)``) for one of unknown length, nothing without a body.
    /// With a tracer, also the gateway's span for the exchange (see ``traceContext(_:service:into:)``).
    func forwardedHead(_ head: HTTPRequestHead, framing: RequestFraming.Body, requestID: String, service: ServiceName)
        -> (ByteBuffer, (any Tracing.Span)?)
    {
        var size = head.uri.utf8.count + 256
        for (name, value) in head.headers { size += name.utf8.count + value.utf8.count + 4 }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(size)
        WireFormat.writeRequestLine(head.method, head.uri, into: &buffer)
        for (name, value) in head.headers where !Self.isDroppedRequestHeader(name) {
            WireFormat.writeField(name, value, into: &buffer)
        }
        switch framing {
        case .none: break
        case .length(let length): WireFormat.writeField("content-length", String(length), into: &buffer)
        case .chunked: WireFormat.writeField("transfer-encoding", "chunked", into: &buffer)
        }
        WireFormat.writeField(PlatformHeaders.requestID, requestID, into: &buffer)
        WireFormat.writeField(PlatformHeaders.forwardedFor, client.text, into: &buffer)
        let span = traceContext(head, service: service, into: &buffer)
        buffer.writeStaticString("\r\n")
        return (buffer, span)
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
    /// Relays the service's head: as the service sent it when nothing in it needs changing (the usual case:
    /// services echo the gateway's request id), else rewritten field by field.
    func upstreamResponseHead(_ head: UpstreamResponseHead) {
        guard let exchange else { return }
        let framing = UpstreamResponseParser.bodyFraming(of: head, respondingToHEAD: exchange.method == .HEAD)
        let clientSpeaks11 = exchange.version.major == 1 && exchange.version.minor >= 1
        // The body comes de-chunked from the parser: chunked again for an HTTP/1.1 client; an HTTP/1.0 client
        // reads a chunked or unframed body until the gateway closes the connection.
        var addChunked = false
        var dropTransferEncoding = false
        var chunkedForClient = false
        switch framing {
        case .none, .length: break
        case .chunked:
            chunkedForClient = clientSpeaks11
            dropTransferEncoding = !clientSpeaks11
        case .untilClose:
            chunkedForClient = clientSpeaks11
            addChunked = clientSpeaks11
        }
        if !chunkedForClient && (framing == .chunked || framing == .untilClose) {
            exchange.keepAlive = false
        }
        let asSent =
            head.echoes(requestID: exchange.requestID) && !head.hasHopByHopFields && exchange.keepAlive && !addChunked
            && !dropTransferEncoding
            && head.minorVersion == exchange.version.minor
        exchange.beginResponse(
            .init(status: head.status, framed: framing != .untilClose, chunkedForClient: chunkedForClient))
        guard !asSent else { return writeToClient(head.bytes) }
        var buffer = ByteBuffer()
        buffer.reserveCapacity(head.bytes.readableBytes + 128)
        head.bytes.withUnsafeReadableBytes { raw in
            // The status line in the client's version: "HTTP/1.x", then the service's from its space on (the head
            // was read, so its status line and fields are well formed).
            guard let statusEnd = HeadBytes.lineEnd(raw, from: 0) else { return }
            buffer.writeStaticString(exchange.version.minor == 0 ? "HTTP/1.0" : "HTTP/1.1")
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: raw[8..<statusEnd + 2]))
            _ = HeadBytes.forEachField(raw, from: statusEnd + 2) { name, _, line in
                let dropped =
                    HeadBytes.matches(raw, name, "connection") || HeadBytes.matches(raw, name, "keep-alive")
                    || HeadBytes.matches(raw, name, "x-request-id")
                    || (dropTransferEncoding && HeadBytes.matches(raw, name, "transfer-encoding"))
                if !dropped { buffer.writeBytes(UnsafeRawBufferPointer(rebasing: raw[line])) }
                return true
            }
        }
        WireFormat.writeField(PlatformHeaders.requestID, exchange.requestID, into: &buffer)
        if addChunked { WireFormat.writeField("transfer-encoding", "chunked", into: &buffer) }
        if !exchange.keepAlive { WireFormat.writeField("connection", "close", into: &buffer) }
        buffer.writeStaticString("\r\n")
        writeToClient(buffer)
    }

    func upstreamResponseBody(_ body: ByteBuffer) {
        // An empty chunk would end the client's body: the parser hands on no empty slice, and none is written.
        guard let exchange, body.readableBytes > 0 else { return }
        guard exchange.response?.chunkedForClient == true else { return writeToClient(body) }
        writeToClient(WireFormat.chunkSizeLine(body.readableBytes))
        writeToClient(body)
        writeToClient(WireFormat.crlf)
    }

    func upstreamReadComplete() {
        flushClient()
    }

    func upstreamResponseEnd() {
        guard exchange?.connection != nil, let exchange = takeExchange(), let connection = exchange.connection else {
            return
        }
        core.metrics.record(
            target: exchange.service.rawValue, status: exchange.responseStatus, since: exchange.startedAt)
        exchange.endSpan(status: exchange.responseStatus)
        let response = exchange.response
        if response?.chunkedForClient == true { writeToClient(WireFormat.lastChunk) }
        // Pooled again only after answering one complete request, with a response that ended by its own
        // framing and keeps the connection; anything else may leave bytes of this exchange on the wire.
        if exchange.requestComplete, let response, !response.bodyDropped, response.framed,
            !connection.handler.closeAfterResponse
        {
            if exchange.upstreamReadsPaused {
                try? connection.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
            }
            pool.release(connection, to: exchange.service)
        } else {
            // E.g. the service answered before the body ended (it refused it): the connection is mid-request; the
            // rest of the body is then discarded (``finishResponse(keepAlive:)``).
            connection.abandon()
        }
        finishResponse(keepAlive: exchange.keepAlive)
    }

    func upstreamFailed(_ error: any Error) {
        guard let exchange else { return }
        // A connection closed without answering, a request that may run twice (`replay` is kept only for those): a
        // pooled connection the service had already closed, or a new one to a replica that is stopping (it then
        // rests, so the next try goes to another replica). Sent again on a new connection, twice at most. An answer
        // that is not HTTP came from a service that read the request.
        if case .requesting(let connection, let reused) = exchange.leg, exchange.requestComplete,
            !(error is UpstreamProtocolError), exchange.replay != nil, exchange.replays < 2
        {
            if !reused { pool.rest(connection.address) }
            exchange.replayOnNewConnection()
            return connect()
        }
        let what =
            error is UpstreamProtocolError
            ? "sent an answer that is not valid HTTP/1.1" : "closed the connection without answering"
        failExchange(
            Problem(
                status: 502, code: "bad_gateway", title: "Bad gateway",
                detail: "The \(exchange.service.rawValue) service \(what)."))
    }

    func upstreamWritabilityChanged(isWritable: Bool) {
        // The service reads the body slowly: stop reading it from the client until it catches up.
        flow.pausedByService = !isWritable
        // Meanwhile the wait is the service's, not the client's: it has the answer timeout to read on or answer.
        if let exchange, !exchange.requestComplete, !exchange.responseStarted {
            if isWritable { exchange.headDeadline = nil } else { startHeadTimer(for: exchange) }
        }
        updateClientReads()
    }
}
