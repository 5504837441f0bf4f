import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit

/// The forwarded request's headers, and the service's side of an exchange.
extension GatewayHandler {
    /// The request as the service sees it: hop-by-hop and spoofable headers dropped, our own added.
    func forwardedHead(_ head: HTTPRequestHead, requestID: String) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count + 2)
        for (name, value) in head.headers where !Self.droppedRequestHeaders.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        headers.add(name: PlatformHeaders.requestID, value: requestID)
        headers.add(name: PlatformHeaders.forwardedFor, value: clientAddress)
        return HTTPRequestHead(version: .http1_1, method: head.method, uri: head.uri, headers: headers)
    }

    /// Request headers that stop here: hop-by-hop ones, the platform's own (a client could spoof them), and
    /// `expect` (the gateway reads the body itself; a service's interim 100 must not reach the client).
    static let droppedRequestHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect",
        PlatformHeaders.internalToken.lowercased(), PlatformHeaders.forwardedFor.lowercased(),
        PlatformHeaders.requestID.lowercased(),
    ]

    static let droppedResponseHeaders: Set<String> = ["connection", "keep-alive", "x-request-id"]

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
        guard var exchange else { return }
        exchange.headTimeout?.cancel()
        exchange.headTimeout = nil
        exchange.replay = nil
        exchange.responseStarted = true
        exchange.responseStatus = Int(head.status.code)
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count + 2)
        for (name, value) in head.headers where !Self.droppedResponseHeaders.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        headers.add(name: PlatformHeaders.requestID, value: exchange.requestID)
        if !exchange.keepAlive { headers.add(name: "connection", value: "close") }
        self.exchange = exchange
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: exchange.version, status: head.status, headers: headers))),
            promise: nil)
    }

    func upstreamResponseBody(_ body: ByteBuffer) {
        guard exchange != nil else { return }
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
    }

    func upstreamReadComplete() {
        context.flush()
    }

    func upstreamResponseEnd() {
        guard let exchange, let channel = exchange.channel else { return }
        self.exchange = nil
        core.metrics.record(
            target: exchange.service.rawValue, status: exchange.responseStatus, since: exchange.startedAt)
        let upstreamClosing =
            (try? channel.pipeline.syncOperations.handler(type: UpstreamHandler.self))?.closeAfterResponse ?? true
        if exchange.requestComplete && !upstreamClosing {
            pool.release(channel, to: exchange.upstream)
        } else {
            // The service answered before the body ended (e.g. it refused it): the connection is mid-request.
            detach(channel)
            discardingRequest = !exchange.requestComplete
        }
        finishResponse(keepAlive: exchange.keepAlive)
    }

    func upstreamFailed(_ error: any Error) {
        guard var exchange else { return }
        exchange.headTimeout?.cancel()
        // A pooled connection the service had already closed: replay the request once on a new one.
        if exchange.reused, !exchange.responseStarted, exchange.requestComplete, let replay = exchange.replay {
            exchange.channel = nil
            exchange.reused = false
            exchange.pending = replay
            self.exchange = exchange
            return connect()
        }
        failExchange(
            Problem(
                status: 502, code: "bad_gateway", title: "Bad gateway",
                detail: "The \(exchange.service.rawValue) service closed the connection without answering."))
    }

    func upstreamWritabilityChanged(isWritable: Bool) {
        // The service reads the body slowly: stop reading it from the client until it catches up.
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: isWritable)
    }

    func responseHeadTimedOut(_ id: Int) {
        guard let exchange, exchange.id == id, !exchange.responseStarted else { return }
        failExchange(
            Problem(
                status: 504, code: "gateway_timeout", title: "Gateway timeout",
                detail: "The \(exchange.service.rawValue) service did not answer in time."))
    }
}
