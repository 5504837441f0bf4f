import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// An upstream that misbehaves on purpose, for the gateway's failure paths.
public final class MisbehavingUpstream: Sendable {
    public enum Behaviour: Sendable {
        /// Answers the first request of each connection (keeping it alive), then closes the connection
        /// when the next request arrives, as a server whose idle timeout fired just then would.
        case closeSecondRequestOnEachConnection
        /// Reads requests and never answers.
        case neverAnswer
    }

    private let channel: any Channel
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let connections = Mutex(0)
    /// How many connections were accepted.
    public var connectionCount: Int { connections.withLock { $0 } }

    public static func start(_ behaviour: Behaviour) async throws -> MisbehavingUpstream {
        let box = LateBinding<MisbehavingUpstream>()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                box.value?.connections.withLock { $0 += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(Handler(behaviour: behaviour))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = MisbehavingUpstream(channel: channel)
        box.value = upstream
        return upstream
    }

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress?.port ?? 0
    }

    public func stop() async {
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart
        let behaviour: Behaviour
        var requests = 0

        init(behaviour: Behaviour) {
            self.behaviour = behaviour
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            requests += 1
            switch behaviour {
            case .neverAnswer:
                return
            case .closeSecondRequestOnEachConnection where requests > 1:
                context.close(promise: nil)
            case .closeSecondRequestOnEachConnection:
                let body = ByteBuffer(string: #"{"ok":true}"#)
                let head = HTTPResponseHead(
                    version: .http1_1, status: .ok,
                    headers: ["content-type": "application/json", "content-length": String(body.readableBytes)])
                context.write(wrapOutboundOut(.head(head)), promise: nil)
                context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            }
        }
    }
}
