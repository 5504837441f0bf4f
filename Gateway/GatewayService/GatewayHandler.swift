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

    let core: GatewayCore
    let pool: UpstreamPool
    var context: ChannelHandlerContext!
    var exchange: Exchange?
    /// Numbers exchanges, so a late callback (a token check, a connect) never acts on a newer one.
    var generation = 0
    /// True after answering a request ourselves, until its `.end` arrives: its body parts are dropped.
    var discardingRequest = false

    /// One request on its way through the gateway.
    struct Exchange {
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

    func receive(_ head: HTTPRequestHead) {
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
    func authorize(_ head: HTTPRequestHead) {
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

    func connect() {
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

    func attach(_ channel: any Channel, reused: Bool) {
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
    func detach(_ channel: any Channel) {
        (try? channel.pipeline.syncOperations.handler(type: UpstreamHandler.self))?.delegate = nil
        channel.close(promise: nil)
    }

    func send(_ part: HTTPClientRequestPart, in exchange: inout Exchange) {
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

    /// The peer's address, read once per connection (formatting it costs more than the lookup).
    var clientAddress = "unknown"
}
