import NIOCore
import NIOPosix
import PlatformKit

/// Keep-alive connections to the services, one pool per event loop.
///
/// A request and its upstream connection always live on the same event loop, so relaying parts between them is a plain
/// method call: no locks, no task or thread hop (docs/architecture.md, "Why the hot paths look this way").
///
/// `@unchecked Sendable`: it is created up front for every loop but only ever used on its own loop,
/// which each method checks.
final class UpstreamPool: @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let connectTimeout: TimeAmount
    /// Idle connections by service (to any of its replicas; its name hashes faster than a host).
    private var idle: [ServiceName: [UpstreamConnection]] = [:]
    /// Which replica of each service the next new connection tries first.
    private var nextReplica: [ServiceName: Int] = [:]
    /// Replicas that refused a connection, until when they are tried last.
    private var refusedUntil: [GatewayConfiguration.Upstream.Address: NIODeadline] = [:]
    static let maximumIdlePerUpstream = 128

    init(eventLoop: any EventLoop, connectTimeout: TimeAmount) {
        self.eventLoop = eventLoop
        self.connectTimeout = connectTimeout
    }

    /// An idle connection to `service` that is still open, if there is one.
    func takeIdle(_ service: ServiceName) -> UpstreamConnection? {
        eventLoop.preconditionInEventLoop()
        while let connection = idle[service]?.popLast() {
            if connection.channel.isActive { return connection }
        }
        return nil
    }

    /// A new connection to one of `service`'s replicas: the next in turn that has not refused a connection in the
    /// last ``refusedReplicaRest``, else the next that answers (passive health: a refusal is learned from requests,
    /// not from probes). Fails only when every replica refused.
    func connect(to service: ServiceName, _ upstream: GatewayConfiguration.Upstream) -> EventLoopFuture<
        UpstreamConnection
    > {
        eventLoop.preconditionInEventLoop()
        let addresses = upstream.addresses
        let start = nextReplica[service, default: 0] % addresses.count
        nextReplica[service] = start + 1
        let now = NIODeadline.now()
        let inTurn = (0..<addresses.count).map { addresses[(start + $0) % addresses.count] }
        // Replicas resting after a refusal go last, still tried: better a slow answer than none.
        let order =
            inTurn.filter { (refusedUntil[$0] ?? .distantPast) <= now }
            + inTurn.filter { (refusedUntil[$0] ?? .distantPast) > now }
        return connect(trying: order[...])
    }

    /// How long a replica that refused a connection is tried only after the others.
    static let refusedReplicaRest = TimeAmount.seconds(5)

    /// Tries `address` only after the others for a while: it closed a new connection without answering (a replica
    /// stopping), as one that refuses connections is.
    func rest(_ address: GatewayConfiguration.Upstream.Address) {
        eventLoop.preconditionInEventLoop()
        refusedUntil[address] = .now() + Self.refusedReplicaRest
    }

    private func connect(trying addresses: ArraySlice<GatewayConfiguration.Upstream.Address>) -> EventLoopFuture<
        UpstreamConnection
    > {
        guard let address = addresses.first else {
            return eventLoop.makeFailedFuture(ChannelError.connectTimeout(connectTimeout))
        }
        let promise = eventLoop.makePromise(of: UpstreamConnection.self)
        connect(address).whenComplete { result in
            switch result {
            case .success(let connection):
                self.refusedUntil[address] = nil
                promise.succeed(connection)
            case .failure(let error):
                self.refusedUntil[address] = .now() + Self.refusedReplicaRest
                let rest = addresses.dropFirst()
                if rest.isEmpty { return promise.fail(error) }
                promise.completeWith(self.connect(trying: rest))
            }
        }
        return promise.futureResult
    }

    /// A new connection to `address`.
    private func connect(_ address: GatewayConfiguration.Upstream.Address) -> EventLoopFuture<UpstreamConnection> {
        ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                // No HTTP codec: the gateway writes requests as bytes (`forwardedHead`, `send`) and reads the
                // answers with its own parser (`UpstreamResponseParser`).
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(UpstreamHandler())
                }
            }
            .connect(host: address.host, port: address.port)
            .flatMapThrowing { channel in
                UpstreamConnection(
                    channel: channel, handler: try channel.pipeline.syncOperations.handler(type: UpstreamHandler.self),
                    address: address)
            }
    }

    /// Returns a connection whose exchange completed cleanly, or closes it when the pool is full. Closed
    /// connections are dropped as they are taken, and swept here only when the list looks full.
    func release(_ connection: UpstreamConnection, to service: ServiceName) {
        eventLoop.preconditionInEventLoop()
        guard connection.channel.isActive else { return }
        if idle[service, default: []].count >= Self.maximumIdlePerUpstream {
            idle[service]?.removeAll { !$0.channel.isActive }
            guard idle[service, default: []].count < Self.maximumIdlePerUpstream else {
                connection.channel.close(promise: nil)
                return
            }
        }
        idle[service, default: []].append(connection)
    }
}

/// A connection to a service with the handler at the end of its pipeline, found once when it connects.
///
/// `@unchecked Sendable`: it passes through futures of its own event loop only, and is used on that loop.
struct UpstreamConnection: @unchecked Sendable {
    let channel: any Channel
    let handler: UpstreamHandler
    /// The replica it goes to.
    let address: GatewayConfiguration.Upstream.Address

    /// Closes the connection mid-exchange, after telling its handler to stop reporting.
    func abandon() {
        handler.delegate = nil
        channel.close(promise: nil)
    }
}

/// One ``UpstreamPool`` per event loop of the group, created up front.
struct UpstreamPools: Sendable {
    private let pools: [ObjectIdentifier: UpstreamPool]

    init(group: any EventLoopGroup, connectTimeout: TimeAmount) {
        var pools: [ObjectIdentifier: UpstreamPool] = [:]
        for loop in group.makeIterator() {
            pools[ObjectIdentifier(loop)] = UpstreamPool(eventLoop: loop, connectTimeout: connectTimeout)
        }
        self.pools = pools
    }

    /// The pool of `eventLoop`; call on that loop.
    func pool(for eventLoop: any EventLoop) -> UpstreamPool {
        guard let pool = pools[ObjectIdentifier(eventLoop)] else {
            preconditionFailure("the gateway's channels run on the pools' event loop group")
        }
        return pool
    }
}

/// What an upstream connection reports to the request it currently serves.
protocol UpstreamDelegate: AnyObject {
    func upstreamResponseHead(_ head: UpstreamResponseHead)
    func upstreamResponseBody(_ body: ByteBuffer)
    func upstreamResponseEnd()
    func upstreamReadComplete()
    func upstreamFailed(_ error: any Error)
    func upstreamWritabilityChanged(isWritable: Bool)
}

/// The only handler of an upstream connection: reads the service's answer to the current request and hands
/// its parts to the current ``UpstreamDelegate``.
final class UpstreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// The request being served; `nil` while the connection waits in the pool.
    var delegate: (any UpstreamDelegate)?
    /// Whether the connection must not be reused after this response: the service said it closes, its answer
    /// ran until the close, or it sent more than one answer.
    private(set) var closeAfterResponse = false
    private var parser = UpstreamResponseParser(respondingToHEAD: false)
    /// Bytes of the answer read but not yet parsed (a head or a chunk-size line cut by the read).
    private var unparsed: ByteBuffer?

    /// Prepares for the answer to a new request.
    func expectResponse(toHEAD: Bool) {
        parser = UpstreamResponseParser(respondingToHEAD: toHEAD)
        closeAfterResponse = false
        unparsed = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard delegate != nil else {
            // An idle (or abandoned) connection that speaks is out of step with its requests: never reuse it.
            context.close(promise: nil)
            return
        }
        var bytes = unwrapInboundIn(data)
        if var earlier = unparsed {
            earlier.writeBuffer(&bytes)
            bytes = earlier
            unparsed = nil
        }
        do {
            while let event = try parser.next(&bytes) {
                switch event {
                case .head(let head):
                    closeAfterResponse = head.closesConnection || head.status == 101
                    delegate?.upstreamResponseHead(head)
                case .body(let body):
                    delegate?.upstreamResponseBody(body)
                case .end:
                    // Bytes after the end answer no request of ours.
                    if bytes.readableBytes > 0 { closeAfterResponse = true }
                    return endResponse()
                }
                guard delegate != nil else { return }
            }
        } catch {
            let delegate = delegate
            self.delegate = nil
            delegate?.upstreamFailed(error)
            context.close(promise: nil)
            return
        }
        if bytes.readableBytes > 0 { unparsed = bytes }
        if parser.endsAtClose { closeAfterResponse = true }
    }

    private func endResponse() {
        let delegate = delegate
        self.delegate = nil
        delegate?.upstreamResponseEnd()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        delegate?.upstreamReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        delegate?.upstreamWritabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // An answer without framing ends when the service closes; anything else cut short is a failure.
        if parser.endsAtClose {
            closeAfterResponse = true
            endResponse()
        } else {
            let delegate = delegate
            self.delegate = nil
            delegate?.upstreamFailed(ChannelError.eof)
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let delegate = delegate
        self.delegate = nil
        delegate?.upstreamFailed(error)
        context.close(promise: nil)
    }
}
