import NIOCore
import NIOHTTP1
import NIOPosix

/// Keep-alive connections to the services, one pool per event loop.
///
/// A request and its upstream connection always live on the same event loop, so relaying parts between
/// them is a plain method call: no locks, no task or thread hop (docs/architecture.md, "Measured on this machine").
///
/// `@unchecked Sendable`: it is created up front for every loop but only ever used on its own loop,
/// which each method checks.
final class UpstreamPool: @unchecked Sendable {
    private let eventLoop: any EventLoop
    private let connectTimeout: TimeAmount
    private var idle: [GatewayConfiguration.Upstream: [UpstreamConnection]] = [:]
    static let maximumIdlePerUpstream = 128

    init(eventLoop: any EventLoop, connectTimeout: TimeAmount) {
        self.eventLoop = eventLoop
        self.connectTimeout = connectTimeout
    }

    /// An idle connection to `upstream` that is still open, if there is one.
    func takeIdle(_ upstream: GatewayConfiguration.Upstream) -> UpstreamConnection? {
        eventLoop.preconditionInEventLoop()
        while let connection = idle[upstream]?.popLast() {
            if connection.channel.isActive { return connection }
        }
        return nil
    }

    /// A new connection to `upstream`.
    func connect(_ upstream: GatewayConfiguration.Upstream) -> EventLoopFuture<UpstreamConnection> {
        eventLoop.preconditionInEventLoop()
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // The gateway writes the framing headers itself (`forwardedHead`); NIO's automatic framing
                    // decides by method and would write a GET's or TRACE's body unframed (issue 16 item 1).
                    var encoder = HTTPRequestEncoder.Configuration()
                    encoder.automaticallySetFramingHeaders = false
                    // Headers are the client's as NIO's parser accepted them, less some, plus the gateway's own:
                    // validating them again on the way out cost ~5% of the gateway's CPU.
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        enableOutboundHeaderValidation: false, encoderConfiguration: encoder)
                    try channel.pipeline.syncOperations.addHandler(UpstreamHandler())
                }
            }
            .connect(host: upstream.host, port: upstream.port)
            .flatMapThrowing { channel in
                UpstreamConnection(
                    channel: channel, handler: try channel.pipeline.syncOperations.handler(type: UpstreamHandler.self))
            }
    }

    /// Returns a connection whose exchange completed cleanly, or closes it when the pool is full. Closed
    /// connections are dropped as they are taken, and swept here only when the list looks full.
    func release(_ connection: UpstreamConnection, to upstream: GatewayConfiguration.Upstream) {
        eventLoop.preconditionInEventLoop()
        guard connection.channel.isActive else { return }
        if idle[upstream, default: []].count >= Self.maximumIdlePerUpstream {
            idle[upstream]?.removeAll { !$0.channel.isActive }
            guard idle[upstream, default: []].count < Self.maximumIdlePerUpstream else {
                connection.channel.close(promise: nil)
                return
            }
        }
        idle[upstream, default: []].append(connection)
    }
}

/// A connection to a service with the handler at the end of its pipeline, found once when it connects.
struct UpstreamConnection {
    let channel: any Channel
    let handler: UpstreamHandler

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
    func upstreamResponseHead(_ head: HTTPResponseHead)
    func upstreamResponseBody(_ body: ByteBuffer)
    func upstreamResponseEnd()
    func upstreamReadComplete()
    func upstreamFailed(_ error: any Error)
    func upstreamWritabilityChanged(isWritable: Bool)
}

/// The last handler of an upstream connection: hands response parts to the current ``UpstreamDelegate``.
final class UpstreamHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// The request being served; `nil` while the connection waits in the pool.
    var delegate: (any UpstreamDelegate)?
    /// Whether the upstream said it will close the connection after this response.
    private(set) var closeAfterResponse = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard delegate != nil else {
            // An idle (or abandoned) connection that speaks is out of step with its requests: never reuse it.
            context.close(promise: nil)
            return
        }
        switch unwrapInboundIn(data) {
        case .head(let head):
            closeAfterResponse = !head.isKeepAlive
            delegate?.upstreamResponseHead(head)
        case .body(let body):
            delegate?.upstreamResponseBody(body)
        case .end:
            let delegate = delegate
            self.delegate = nil
            delegate?.upstreamResponseEnd()
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        delegate?.upstreamReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        delegate?.upstreamWritabilityChanged(isWritable: context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        let delegate = delegate
        self.delegate = nil
        delegate?.upstreamFailed(ChannelError.eof)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        let delegate = delegate
        self.delegate = nil
        delegate?.upstreamFailed(error)
        context.close(promise: nil)
    }
}
