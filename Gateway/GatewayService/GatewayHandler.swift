import Foundation
import NIOCore
import NIOHTTP1
import PlatformKit
import Tracing

/// Serves one client connection: answers the gateway's own endpoints and refusals itself, and relays
/// every other request to its service over a pooled keep-alive connection on the same event loop.
///
/// One ``Exchange`` at a time is in flight: the parts of a pipelined request that arrive while the previous
/// response is still going out are held (``held``) and handled, in order, once it ends.
final class GatewayHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = Never
    /// Responses go out as bytes: relayed from the service's as they came, or written with ``WireFormat``.
    typealias OutboundOut = ByteBuffer

    let core: GatewayCore
    let pool: UpstreamPool
    var context: ChannelHandlerContext!
    /// Where the connection is with its current request; the transitions are listed on ``ConnectionState``.
    var state = ConnectionState.waitingForRequest(idle: false)
    /// Numbers exchanges, so a late callback (a token check, a connect) never acts on a newer one.
    var generation = 0
    /// The server is shutting down: close once the current response ends. Not a ``ConnectionState``: the signal may
    /// come in any state and changes only what the end of the current response does.
    var quiescing = false
    /// Reading from the client, flushing to it, and the held-parts loop; see ``ClientFlow``.
    var flow = ClientFlow()

    /// Parts of pipelined requests that arrived while the previous response was still going out. The gateway
    /// holds them itself rather than with NIO's `HTTPServerPipelineHandler`, which stops reading the socket for
    /// the length of every response and starts again after it: two `epoll_ctl` calls per request, as many
    /// syscalls as the relay itself makes (docs/architecture.md, "Why the hot paths look this way").
    var held = CircularBuffer<HTTPServerRequestPart>()
    var heldBytes = 0
    /// The method of the request being answered (a response to `HEAD` has no body).
    var requestMethod = HTTPMethod.GET
    /// Ids for the trace contexts this connection starts; seeded once per connection.
    var traceIDs = TraceIDGenerator()

    /// The connection's one timer, for all its deadlines: the service's response head (``Exchange/headDeadline``)
    /// and the client's next bytes (``clientDeadline``). Scheduled only when none is pending, for no later than the
    /// shortest timeout from then, so no deadline set meanwhile comes before it; when it fires early it moves on
    /// (a timer scheduled and cancelled per request cost ~4% of the gateway's CPU).
    var timer: Scheduled<Void>?
    /// When the connection closes unless the client sends more: a request head (from accept, or from the first
    /// byte of the next request), the next request on a kept-alive connection, or more of a request body. `nil`
    /// while the gateway or the service owes the answer: a response in progress is never cut.
    var clientDeadline: NIODeadline?

    /// The states of a client connection, and every transition (the method that makes it):
    ///
    /// - waitingForRequest -> answering: a request head (``handle(_:)``).
    /// - answering -> relaying: the request goes to its service (``receive(_:)``).
    /// - relaying -> answering: the exchange ends, answered or failed (``takeExchange()``).
    /// - answering(requestEnded: false) -> answering(requestEnded: true): the request's end (``handle(_:)``).
    /// - answering -> waitingForRequest(idle: true), or discarding while the request's end is still to come, or
    ///   closing when the connection does not stay: the answer's last bytes (``finishResponse(keepAlive:)``).
    /// - discarding -> waitingForRequest(idle: true): the request's end (``handle(_:)``).
    /// - waitingForRequest(idle: true) -> waitingForRequest(idle: false): the next request's first bytes
    ///   (``channelReadComplete(context:)``).
    /// - any -> closing: the client's deadline passed (``timerFired()``), a shutdown while waiting, an answer cut
    ///   short or a body too large (``failExchange(_:)``, ``abortOversizedBody()``), the connection closed.
    enum ConnectionState {
        /// No request in progress. `idle`: no byte of the next one has come (the idle timeout runs; the first byte
        /// starts the header timeout).
        case waitingForRequest(idle: Bool)
        /// The gateway owes the answer itself: it decides what to do with a new head, answers it, or waits for the
        /// merged OpenAPI document; also after an exchange ended and before its last bytes are written. Body parts
        /// that arrive meanwhile are dropped.
        case answering(requestEnded: Bool)
        /// The request goes to its service; the exchange knows how far (``Exchange/Leg``, ``Exchange/requestComplete``).
        case relaying(Exchange)
        /// Answered before the request's end arrived: its remaining body parts are dropped until `.end`.
        case discarding
        /// The connection closes after what was written: nothing more is read.
        case closing
    }

    /// Flags of the client's socket that any state may have, independently of each other: an enum of them would be
    /// their product.
    struct ClientFlow {
        /// The service reads the body slowly: reading from the client is paused.
        var pausedByService = false
        /// Too much of pipelined requests is held: reading from the client is paused.
        var pausedByHeld = false
        /// Bytes were written to the client since the last flush.
        var needsFlush = false
        /// The current read brought a request part: its bytes were the last request's, not the next one's.
        var readParts = false
        /// ``handleHeld()`` is running: a response that ends inside it lets the loop continue.
        var handlingHeld = false

        var readsPaused: Bool { pausedByService || pausedByHeld }
    }

    /// The current exchange, while relaying.
    var exchange: Exchange? {
        if case .relaying(let exchange) = state { exchange } else { nil }
    }

    /// The current request's end has arrived (its response may still be on its way).
    var requestEnded: Bool {
        switch state {
        case .waitingForRequest, .closing: true
        case .answering(let requestEnded): requestEnded
        case .relaying(let exchange): exchange.requestComplete
        case .discarding: false
        }
    }

    /// The whole request has arrived and its answer is still owed: the next request waits (is held).
    var awaitingResponse: Bool {
        switch state {
        case .answering(let requestEnded): requestEnded
        case .relaying(let exchange): exchange.requestComplete
        case .waitingForRequest, .discarding, .closing: false
        }
    }

    init(core: GatewayCore, pool: UpstreamPool) {
        self.core = core
        self.pool = pool
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        readPeerAddress(context.channel)
        awaitClient(for: core.configuration.headerTimeout)
    }

    // MARK: Client side

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .closing = state { return }
        flow.readParts = true
        let part = unwrapInboundIn(data)
        // The next request waits for the current response; anything behind a held part waits too, to keep the order.
        guard held.isEmpty && !awaitingResponse else { return hold(part) }
        handle(part)
    }

    func handle(_ part: HTTPServerRequestPart) {
        switch part {
        case .head(let head):
            state = .answering(requestEnded: false)
            clientDeadline = nil
            requestMethod = head.method
            receive(head)
        case .body(let body):
            guard let exchange else { return }
            exchange.bodyBytes += body.readableBytes
            guard exchange.bodyBytes <= core.configuration.maximumBodyBytes else { return abortOversizedBody() }
            // A service that has answered wants no more of the body; its connection is closed after the answer.
            guard !exchange.responseStarted else { return exchange.dropBody() }
            send(body)
        case .end:
            switch state {
            case .discarding:
                // Answered already (a refusal, a local endpoint): the idle wait for the next request, set as the
                // answer ended, goes on.
                state = .waitingForRequest(idle: true)
            case .answering:
                clientDeadline = nil
                state = .answering(requestEnded: true)
            case .relaying(let exchange):
                // The answer is owed to the client.
                clientDeadline = nil
                exchange.requestComplete = true
                guard !exchange.responseStarted else { return exchange.dropBody() }
                if exchange.framing == .chunked { send(WireFormat.lastChunk, to: exchange) }
                exchange.flushUpstream()
                // The answer's time starts once the whole request is on its way: a slow upload is the client's time.
                if exchange.channel != nil { startHeadTimer(for: exchange) }
            case .waitingForRequest, .closing:
                break
            }
        }
    }

    func hold(_ part: HTTPServerRequestPart) {
        held.append(part)
        if case .body(let body) = part { heldBytes += body.readableBytes }
        if !flow.pausedByHeld, held.count >= Self.heldPartsLimit || heldBytes >= Self.heldBytesLimit {
            flow.pausedByHeld = true
            updateClientReads()
        }
    }

    /// Handles held parts until they are all handled or the next request is waiting for its response. Called when
    /// a response ends; a response ending while a held part is handled (a refusal) just continues the loop.
    func handleHeld() {
        guard !flow.handlingHeld else { return }
        flow.handlingHeld = true
        defer { flow.handlingHeld = false }
        while !held.isEmpty, !awaitingResponse {
            let part = held.removeFirst()
            if case .body(let body) = part { heldBytes -= body.readableBytes }
            handle(part)
        }
        if flow.pausedByHeld, held.count < Self.heldPartsLimit / 2, heldBytes < Self.heldBytesLimit / 2 {
            flow.pausedByHeld = false
            updateClientReads()
        }
    }

    static let heldPartsLimit = 64
    static let heldBytesLimit = 256 << 10

    /// Reads from the client unless the service reads the body slowly or pipelined requests pile up.
    func updateClientReads() {
        let reading = !flow.readsPaused
        try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: reading)
        // A body the gateway stopped reading gets its full idle time again.
        if reading && !requestEnded { awaitClient(for: core.configuration.idleTimeout) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent else { return context.fireUserInboundEventTriggered(event) }
        // Shutting down: an idle connection closes now, a busy one after its current response.
        quiescing = true
        if case .waitingForRequest = state {
            state = .closing
            context.close(promise: nil)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if !requestEnded {
            // More of a body may come: it has the idle timeout from its last read (unless the gateway paused it).
            if !flow.readsPaused { awaitClient(for: core.configuration.idleTimeout) }
        } else if case .waitingForRequest(idle: true) = state, !flow.readParts {
            // The first bytes of the next request: its head must be complete within the header timeout.
            state = .waitingForRequest(idle: false)
            awaitClient(for: core.configuration.headerTimeout)
        }
        flow.readParts = false
        exchange?.flushUpstream()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // The client reads slowly: stop reading the service's response until it catches up.
        if let exchange, let channel = exchange.channel {
            let writable = context.channel.isWritable
            exchange.upstreamReadsPaused = !writable
            try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: writable)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        if let exchange = takeExchange() {
            exchange.connection?.abandon()
            exchange.endSpan(status: exchange.responseStatus, error: "the client closed the connection")
        }
        state = .closing
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError { answerMalformedRequest() }
        context.close(promise: nil)
    }

    func receive(_ head: HTTPRequestHead) {
        let start = NIODeadline.now()
        let requestID = Self.requestID(from: head.headers)
        let framing: RequestFraming
        do {
            framing = try RequestFraming(head)
        } catch {
            // Where this request ends, and so where the next one starts, is not certain: close after answering.
            return refuse(head, error, requestID, start, closeConnection: true)
        }
        var head = head
        if framing.upgrade {
            // NIO's decoder reads nothing more after an upgrade request: answer it, then close.
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        switch core.router.decide(uri: head.uri) {
        case .local(let endpoint):
            answerLocally(endpoint, head: head, requestID: requestID, start: start)
        case .notFound:
            refuse(head, Self.noRoute(head), requestID, start)
        case .malformed:
            refuse(
                head, Problem.badRequest("invalid_path", "The path has dot segments or encoded separators."), requestID,
                start)
        case .forward(let service, let requiresToken):
            if let proxy = trustedPeer { readForwardedClient(head, proxy: proxy) }
            if let limit = core.rateLimiter.acquire(client.limiterKey) {
                return refuse(head, Problem.tooManyRequests(retryAfter: limit), requestID, start)
            }
            if case .length(let length) = framing.body, length > core.configuration.maximumBodyBytes {
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
            let (forwarded, span) = forwardedHead(head, framing: framing.body, requestID: requestID, service: service)
            generation += 1
            state = .relaying(
                Exchange(
                    id: generation, service: service, upstream: upstream, requestID: requestID, startedAt: start,
                    method: head.method, keepAlive: head.isKeepAlive, version: head.version, framing: framing.body,
                    head: forwarded, replayable: Self.isReplayable(head), span: span))
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

    /// Sends the exchange upstream: at once over an idle pooled connection, else once a new one is open.
    func connect() {
        guard let service = exchange?.service, let upstream = exchange?.upstream else { return }
        if let idle = pool.takeIdle(service) { return attach(idle, reused: true) }
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        let id = generation
        pool.connect(to: service, upstream).whenComplete { result in
            let handler = this.value
            switch result {
            case .success(let connection):
                guard handler.exchange?.id == id else {
                    // The exchange ended while we connected: the connection is clean, keep it.
                    return handler.pool.release(connection, to: service)
                }
                handler.attach(connection, reused: false)
            case .failure:
                guard handler.exchange?.id == id else { return }
                handler.failExchange(Problem.serviceUnavailable(service.rawValue))
            }
        }
    }

    func attach(_ connection: UpstreamConnection, reused: Bool) {
        guard let exchange else { return }
        connection.handler.delegate = self
        connection.handler.expectResponse(toHEAD: exchange.method == .HEAD)
        // The exchange is up to date before writing: a failing write reports to it at once.
        let pending = exchange.attach(connection, reused: reused)
        connection.channel.write(exchange.head, promise: nil)
        for part in pending { connection.channel.write(part, promise: nil) }
        connection.channel.flush()
        if exchange.requestComplete { startHeadTimer(for: exchange) }
    }

    /// Gives the service until the configured timeout to start its response, from when the whole request was
    /// written to it.
    func startHeadTimer(for exchange: Exchange) {
        let deadline = NIODeadline.now() + core.configuration.responseHeadTimeout
        exchange.headDeadline = deadline
        if timer == nil { scheduleTimer(at: deadline) }
    }

    /// Gives the client until `timeout` from now to send what the connection waits for.
    func awaitClient(for timeout: TimeAmount) {
        let deadline = NIODeadline.now() + timeout
        clientDeadline = deadline
        if timer == nil { scheduleTimer(at: deadline) }
    }

    /// Schedules the connection's timer for `deadline`, or sooner: a deadline set before it fires is at least the
    /// shortest timeout from now, so it is never earlier than the timer.
    func scheduleTimer(at deadline: NIODeadline) {
        let configuration = core.configuration
        let shortest = min(configuration.headerTimeout, configuration.idleTimeout, configuration.responseHeadTimeout)
        let this = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: min(deadline, .now() + shortest)) { this.value.timerFired() }
    }

    /// Acts on the deadlines that passed, and moves the timer on to the next one, if any.
    func timerFired() {
        timer = nil
        let now = NIODeadline.now()
        var next = clientDeadline
        if let deadline = clientDeadline, deadline <= now {
            next = nil
            // Not the client's delay when the gateway stopped reading, nor while a response is going out.
            if !(flow.readsPaused || exchange?.responseStarted == true) {
                state = .closing
                context.close(promise: nil)
                return
            }
        }
        if let exchange, !exchange.responseStarted, let deadline = exchange.headDeadline {
            guard deadline > now else {
                return failExchange(
                    Problem(
                        status: 504, code: "gateway_timeout", title: "Gateway timeout",
                        detail: "The \(exchange.service.rawValue) service did not answer in time."))
            }
            next = min(next ?? deadline, deadline)
        }
        if let next { scheduleTimer(at: next) }
    }

    /// Whether a request may be sent again when its pooled connection fails before an answer: only when running
    /// it twice does no harm, idempotent methods (RFC 9110 §9.2.2) or an `Idempotency-Key` the service dedupes by.
    /// Bytes written to a socket may have reached the service although no answer came.
    static func isReplayable(_ head: HTTPRequestHead) -> Bool {
        switch head.method {
        case .GET, .HEAD, .PUT, .DELETE, .OPTIONS: true
        default: head.headers.contains(name: "idempotency-key")
        }
    }

    /// Writes a request part upstream, or holds it until the connection is there; keeps a copy for a retry
    /// while the body is small.
    func send(_ body: ByteBuffer) {
        guard let exchange else { return }
        // The chunk-size line and CRLF of a chunked body are their own buffers: written together, not copied.
        if exchange.framing == .chunked && body.readableBytes > 0 {
            send(WireFormat.chunkSizeLine(body.readableBytes), to: exchange)
            send(body, to: exchange)
            send(WireFormat.crlf, to: exchange)
        } else {
            send(body, to: exchange)
        }
    }

    func send(_ part: ByteBuffer, to exchange: Exchange) {
        if exchange.replay != nil {
            if exchange.bodyBytes <= Exchange.retryLimit {
                exchange.replay?.append(part)
            } else {
                exchange.replay = nil
            }
        }
        if let channel = exchange.channel {
            channel.write(part, promise: nil)
            exchange.upstreamNeedsFlush = true
        } else {
            exchange.pending.append(part)
        }
    }

    /// Ends the current exchange (relaying -> answering: what is left to write is the gateway's): lets the client's
    /// reads resume if the service's back-pressure paused them (otherwise a connection whose exchange ended early
    /// would never read again).
    @discardableResult
    func takeExchange() -> Exchange? {
        guard let exchange else { return nil }
        state = .answering(requestEnded: exchange.requestComplete)
        if flow.pausedByService {
            flow.pausedByService = false
            updateClientReads()
        }
        return exchange
    }

    /// The client's address: the peer's, read once per connection (formatting it costs more than the lookup), or
    /// behind a trusted proxy the request's (``readForwardedClient(_:proxy:)``).
    var client = ClientAddress.unknown
    /// The peer, when it is a trusted proxy (`TRUSTED_PROXIES`): each of its requests names its own client.
    var trustedPeer: IPAddress?
}
