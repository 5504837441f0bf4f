import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit

/// Serves one client connection: answers the gateway's own endpoints and refusals itself, and relays
/// every other request to its service over a pooled keep-alive connection on the same event loop.
///
/// Requests arrive one at a time (NIO's pipelining helper holds back the next until this response
/// ends), so one ``Exchange`` at a time is in flight.
final class GatewayHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPServerResponsePart

    private let core: GatewayCore
    private let pool: UpstreamPool
    private var context: ChannelHandlerContext!
    private var exchange: Exchange?
    /// Numbers exchanges, so a late callback (a token check, a connect) never acts on a newer one.
    private var generation = 0
    /// True after answering a request ourselves, until its `.end` arrives: its body parts are dropped.
    private var discardingRequest = false

    /// One request on its way through the gateway.
    private struct Exchange {
        let id: Int
        let service: ServiceName
        let upstream: GatewayConfiguration.Upstream
        let requestID: String
        let startedAt: NIODeadline
        let keepAlive: Bool
        let version: HTTPVersion
        /// Parts not yet written upstream (while the token is checked or the connection opens).
        var pending: [HTTPClientRequestPart]
        /// Every part so far, kept until the response head arrives, to retry once on a fresh connection
        /// when a pooled one turns out to be closed; `nil` once the body grows past `retryLimit`.
        var replay: [HTTPClientRequestPart]?
        var bodyBytes = 0
        var requestComplete = false
        var channel: (any Channel)?
        var reused = false
        var responseStarted = false
        var responseStatus = 0
        var headTimeout: Scheduled<Void>?
        static let retryLimit = 64 << 10
    }

    init(core: GatewayCore, pool: UpstreamPool) {
        self.core = core
        self.pool = pool
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        clientAddress = context.channel.remoteAddress?.ipAddress ?? "unknown"
    }

    // MARK: Client side

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            receive(head)
        case .body(let body):
            guard !discardingRequest, var exchange else { return }
            exchange.bodyBytes += body.readableBytes
            guard exchange.bodyBytes <= core.configuration.maximumBodyBytes else {
                self.exchange = exchange
                abortOversizedBody()
                return
            }
            send(.body(.byteBuffer(body)), in: &exchange)
            self.exchange = exchange
        case .end:
            if discardingRequest {
                discardingRequest = false
                return
            }
            guard var exchange else { return }
            exchange.requestComplete = true
            send(.end(nil), in: &exchange)
            exchange.channel?.flush()
            self.exchange = exchange
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        exchange?.channel?.flush()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // The client reads slowly: stop reading the service's response until it catches up.
        if let channel = exchange?.channel {
            try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: context.channel.isWritable)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let exchange {
            exchange.headTimeout?.cancel()
            exchange.channel.map(detach)
            self.exchange = nil
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func receive(_ head: HTTPRequestHead) {
        let start = NIODeadline.now()
        let requestID = Self.requestID(from: head.headers)
        switch core.router.decide(uri: head.uri) {
        case .local(let endpoint):
            answerLocally(endpoint, head: head, requestID: requestID, start: start)
        case .notFound:
            let detail = "No route for \(head.method) \(Self.path(of: head.uri))."
            refuse(head, Problem(status: 404, code: "no_route", title: "Not found", detail: detail), requestID, start)
        case .malformed:
            refuse(
                head, Problem.badRequest("invalid_path", "The path has dot segments or encoded separators."), requestID,
                start)
        case .forward(let service, let requiresToken):
            if let limit = core.rateLimiter.acquire(clientAddress) {
                return refuse(head, Problem.tooManyRequests(retryAfter: limit), requestID, start)
            }
            if let length = head.headers.first(name: "content-length").flatMap(Int.init),
                length > core.configuration.maximumBodyBytes
            {
                // Read and drop a body up to a few times the limit, so a client still sending it gets to
                // read the 413 and may reuse the connection; a larger one is not worth reading.
                let drain = length <= 4 * core.configuration.maximumBodyBytes
                return refuse(
                    head, Problem.payloadTooLarge(limit: core.configuration.maximumBodyBytes), requestID, start,
                    closeConnection: !drain)
            }
            guard let upstream = core.configuration.upstreams[service] else {
                return refuse(head, Problem.serviceUnavailable(service.rawValue), requestID, start)
            }
            let forwarded = forwardedHead(head, requestID: requestID)
            generation += 1
            exchange = Exchange(
                id: generation, service: service, upstream: upstream, requestID: requestID, startedAt: start,
                keepAlive: head.isKeepAlive, version: head.version, pending: [.head(forwarded)],
                replay: [.head(forwarded)])
            guard requiresToken else { return connect() }
            authorize(head)
        }
    }

    /// Checks the access token: synchronously from the verifier's cache when it has seen the token,
    /// else off the event loop (signature check), resuming here.
    private func authorize(_ head: HTTPRequestHead) {
        guard let token = AccessTokenVerifier.bearerToken(head.headers.first(name: "authorization")) else {
            return failExchange(
                Problem.unauthorized("missing_token", "Send an access token as `Authorization: Bearer <token>`."))
        }
        if core.verifier.cachedUser(token: token) != nil { return connect() }
        let verifier = core.verifier
        let promise = context.eventLoop.makePromise(of: AuthenticatedUser.self)
        promise.completeWithTask { try await verifier.verify(token: token) }
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let id = generation
        promise.futureResult.whenComplete { result in
            let handler = this.value
            guard handler.exchange?.id == id else { return }
            switch result {
            case .success: handler.connect()
            case .failure(let error):
                handler.failExchange(
                    error as? Problem ?? Problem.unauthorized("invalid_token", "The access token is not valid."))
            }
        }
    }

    private func connect() {
        guard let upstream = exchange?.upstream else { return }
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let id = generation
        pool.acquire(upstream).whenComplete { result in
            let handler = this.value
            switch result {
            case .success(let connection):
                guard handler.exchange?.id == id else {
                    // The exchange ended while we connected: the connection is clean, keep it.
                    return handler.pool.release(connection.channel, to: upstream)
                }
                handler.attach(connection.channel, reused: connection.reused)
            case .failure:
                guard handler.exchange?.id == id, let service = handler.exchange?.service else { return }
                handler.failExchange(Problem.serviceUnavailable(service.rawValue))
            }
        }
    }

    private func attach(_ channel: any Channel, reused: Bool) {
        guard var exchange else { return }
        guard let upstreamHandler = try? channel.pipeline.syncOperations.handler(type: UpstreamHandler.self) else {
            channel.close(promise: nil)
            return failExchange(Problem.serviceUnavailable(exchange.service.rawValue))
        }
        upstreamHandler.delegate = self
        exchange.channel = channel
        exchange.reused = reused
        for part in exchange.pending { channel.write(part, promise: nil) }
        exchange.pending.removeAll()
        channel.flush()
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let id = exchange.id
        exchange.headTimeout = context.eventLoop.scheduleTask(in: core.configuration.responseHeadTimeout) {
            this.value.responseHeadTimedOut(id)
        }
        self.exchange = exchange
    }

    /// Closes an upstream connection that is mid-exchange, after telling it to stop reporting to us.
    private func detach(_ channel: any Channel) {
        (try? channel.pipeline.syncOperations.handler(type: UpstreamHandler.self))?.delegate = nil
        channel.close(promise: nil)
    }

    private func send(_ part: HTTPClientRequestPart, in exchange: inout Exchange) {
        if var replay = exchange.replay {
            replay.append(part)
            exchange.replay = exchange.bodyBytes <= Exchange.retryLimit ? replay : nil
        }
        if let channel = exchange.channel {
            channel.write(part, promise: nil)
        } else {
            exchange.pending.append(part)
        }
    }

    // MARK: Answers of our own

    private func refuse(
        _ head: HTTPRequestHead, _ problem: Problem, _ requestID: String, _ start: NIODeadline,
        closeConnection: Bool = false
    ) {
        discardingRequest = true
        respond(problem, requestID: requestID, version: head.version, keepAlive: head.isKeepAlive && !closeConnection)
        core.metrics.record(target: "gateway", status: problem.statusCode, since: start)
    }

    /// Ends the current exchange with a problem, if no response byte has gone out yet.
    private func failExchange(_ problem: Problem) {
        guard let exchange else { return }
        exchange.headTimeout?.cancel()
        self.exchange = nil
        exchange.channel.map(detach)
        discardingRequest = !exchange.requestComplete
        guard !exchange.responseStarted else {
            context.close(promise: nil)
            return
        }
        respond(problem, requestID: exchange.requestID, version: exchange.version, keepAlive: exchange.keepAlive)
        core.metrics.record(target: exchange.service.rawValue, status: problem.statusCode, since: exchange.startedAt)
    }

    private func abortOversizedBody() {
        failExchange(Problem.payloadTooLarge(limit: core.configuration.maximumBodyBytes))
        // The rest of the body would still arrive; closing is cheaper than reading it.
        context.close(promise: nil)
    }

    private func respond(_ problem: Problem, requestID: String, version: HTTPVersion, keepAlive: Bool) {
        var headers = HTTPHeaders([("content-type", Problem.mediaType), ("x-request-id", requestID)])
        if let retryAfter = problem.retryAfter { headers.add(name: "retry-after", value: String(retryAfter)) }
        respond(
            status: .init(statusCode: problem.statusCode), headers: headers, body: ByteBuffer(bytes: problem.jsonData),
            version: version, keepAlive: keepAlive)
    }

    private func respond(
        status: HTTPResponseStatus, headers: HTTPHeaders, body: ByteBuffer, version: HTTPVersion, keepAlive: Bool
    ) {
        var headers = headers
        headers.add(name: "content-length", value: String(body.readableBytes))
        if !keepAlive { headers.add(name: "connection", value: "close") }
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        finishResponse(keepAlive: keepAlive)
    }

    private func finishResponse(keepAlive: Bool) {
        if keepAlive {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        } else {
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    private func answerLocally(
        _ endpoint: GatewayRouter.LocalEndpoint, head: HTTPRequestHead, requestID: String, start: NIODeadline
    ) {
        discardingRequest = true
        let json = HTTPHeaders([("content-type", "application/json"), ("x-request-id", requestID)])
        switch endpoint {
        case .live:
            respond(
                status: .ok, headers: json, body: ByteBuffer(string: #"{"status":"ok"}"#), version: head.version,
                keepAlive: head.isKeepAlive)
        case .ready:
            respond(
                status: .ok, headers: json, body: ByteBuffer(string: #"{"status":"ready"}"#), version: head.version,
                keepAlive: head.isKeepAlive)
        case .metrics:
            let headers = HTTPHeaders([("content-type", "text/plain; version=0.0.4"), ("x-request-id", requestID)])
            respond(
                status: .ok, headers: headers, body: core.metrics.exposition(), version: head.version,
                keepAlive: head.isKeepAlive)
        case .openAPI:
            let merger = core.openAPI
            let promise = context.eventLoop.makePromise(of: Data.self)
            promise.completeWithTask { await merger.document() }
            let this = NIOLoopBound(self, eventLoop: context.eventLoop)
            promise.futureResult.whenSuccess { document in
                guard this.value.context.channel.isActive else { return }
                this.value.respond(
                    status: .ok, headers: json, body: ByteBuffer(bytes: document), version: head.version,
                    keepAlive: head.isKeepAlive)
            }
        }
        core.metrics.record(target: "gateway", status: 200, since: start)
    }

    // MARK: Headers

    /// The peer's address, read once per connection (formatting it costs more than the lookup).
    private var clientAddress = "unknown"

    /// The request as the service sees it: hop-by-hop and spoofable headers dropped, our own added.
    private func forwardedHead(_ head: HTTPRequestHead, requestID: String) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count + 2)
        for (name, value) in head.headers where !Self.droppedRequestHeaders.contains(name.lowercased()) {
            headers.add(name: name, value: value)
        }
        headers.add(name: PlatformHeaders.requestID, value: requestID)
        headers.add(name: PlatformHeaders.forwardedFor, value: clientAddress)
        return HTTPRequestHead(version: .http1_1, method: head.method, uri: head.uri, headers: headers)
    }

    /// `expect` too: the gateway reads the body itself, and a service's interim 100 would reach a client
    /// that may not have asked for it.
    private static let droppedRequestHeaders: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade", "expect",
        PlatformHeaders.internalToken.lowercased(), PlatformHeaders.forwardedFor.lowercased(),
        PlatformHeaders.requestID.lowercased(),
    ]

    private static let droppedResponseHeaders: Set<String> = ["connection", "keep-alive", "x-request-id"]

    /// The client's request id when it is short and plain, else a new one.
    private static func requestID(from headers: HTTPHeaders) -> String {
        if let given = headers.first(name: PlatformHeaders.requestID), (8...64).contains(given.utf8.count),
            given.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122)
            })
        {
            return given
        }
        return RequestIDs.next()
    }

    private static func path(of uri: String) -> Substring {
        uri.firstIndex(of: "?").map { uri[..<$0] } ?? Substring(uri)
    }
}

// MARK: Service side

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

    private func responseHeadTimedOut(_ id: Int) {
        guard let exchange, exchange.id == id, !exchange.responseStarted else { return }
        failExchange(
            Problem(
                status: 504, code: "gateway_timeout", title: "Gateway timeout",
                detail: "The \(exchange.service.rawValue) service did not answer in time."))
    }
}
