import AsyncHTTPClient
import Logging
import NIOCore
import NIOExtras
import NIOHTTP1
import NIOPosix
import PlatformKit
import ServiceLifecycle

/// The gateway: a SwiftNIO HTTP/1.1 server whose connections relay to the services.
///
/// Written on SwiftNIO rather than as a Hummingbird route because forwarding is the platform's hottest path: measured
/// here, a Hummingbird handler over AsyncHTTPClient cost ~170 µs per request against ~32 µs for parts relayed between
/// two channels on one event loop (docs/architecture.md, "Why the hot paths look this way").
public struct GatewayServer: Service {
    private let configuration: GatewayConfiguration
    private let core: GatewayCore
    private let group: any EventLoopGroup
    private let logger: Logger

    /// Creates the gateway; nothing listens until ``run()``.
    public init(
        configuration: GatewayConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        httpClient: HTTPClient = .platform
    ) {
        var logger = Logger(label: "platform.gateway")
        logger.logLevel = configuration.logLevel
        self.configuration = configuration
        self.core = GatewayCore(configuration: configuration, httpClient: httpClient, logger: logger)
        self.group = group
        self.logger = logger
    }

    public func run() async throws {
        let pools = UpstreamPools(group: group, connectTimeout: configuration.connectTimeout)
        let quiesce = ServerQuiescingHelper(group: group)
        let core = core
        let limiter = ConnectionLimiter(
            total: configuration.maximumConnections, perAddress: configuration.maximumConnectionsPerAddress,
            trustedProxies: configuration.trustedProxies)
        let serverChannel = try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // Connections over a cap are closed before the quiescing helper tracks them.
                    try channel.pipeline.syncOperations.addHandler(ConnectionLimiter.Handler(limiter: limiter))
                    try channel.pipeline.syncOperations.addHandler(quiesce.makeServerChannelHandler(channel: channel))
                }
            }
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // NIO parses the client's requests (llhttp); the gateway writes its responses as bytes, relaying
                    // a service's head as it came (`WireFormat`, `upstreamResponseHead`). Pipelined requests and
                    // requests the parser refuses are handled by the gateway's handler (`GatewayHandler.held`,
                    // `answerMalformedRequest`).
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try channel.pipeline.syncOperations.addHandler(
                        GatewayHandler(core: core, pool: pools.pool(for: channel.eventLoop)))
                }
            }
            .bind(host: configuration.host, port: configuration.port).get()
        let port = serverChannel.localAddress?.port ?? configuration.port
        logger.info("gateway listening", metadata: ["address": "\(configuration.host):\(port)"])
        await configuration.onListening?(port)
        if core.revocationFeed == nil {
            logger.warning("no INTERNAL_TOKEN: ended sessions are refused only when their access tokens expire")
        }
        await withDiscardingTaskGroup { group in
            if let feed = core.revocationFeed { group.addTask { await feed.run() } }
            // On shutdown stop accepting, let each connection finish its current response, then return.
            await withGracefulShutdownHandler {
                try? await serverChannel.closeFuture.get()
            } onGracefulShutdown: {
                let done = serverChannel.eventLoop.makePromise(of: Void.self)
                quiesce.initiateShutdown(promise: done)
            }
            group.cancelAll()
        }
    }
}
