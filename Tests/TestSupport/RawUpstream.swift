import NIOCore
import NIOPosix
import Synchronization

/// A service that answers every request head it reads with the exact bytes it was given, for the gateway's
/// relay of answers an HTTP library would frame for itself (chunked, unframed, interim, not HTTP at all).
public final class RawUpstream: Sendable {
    private let channel: any Channel
    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let connections = Atomic<Int>(0)
    /// How many connections were accepted.
    public var connectionCount: Int { connections.load(ordering: .relaxed) }

    /// Answers each request with `answer`; closes the connection after each answer when `closing`.
    public static func start(answer: String, closing: Bool = false) async throws -> RawUpstream {
        let box = LateBinding<RawUpstream>()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                box.value?.connections.add(1, ordering: .relaxed)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(answer: answer, closing: closing))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let upstream = RawUpstream(channel: channel)
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

    /// Answers once per request head (bodies are not expected: the tests send none).
    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let answer: String
        let closing: Bool
        var received: [UInt8] = []

        init(answer: String, closing: Bool) {
            self.answer = answer
            self.closing = closing
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            received += unwrapInboundIn(data).readableBytesView
            while let end = headEnd() {
                received.removeFirst(end)
                let written = context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: answer)))
                if closing {
                    let channel = context.channel
                    written.whenComplete { _ in channel.close(promise: nil) }
                    return
                }
            }
        }

        func headEnd() -> Int? {
            guard received.count >= 4 else { return nil }
            for index in 3..<received.count
            where received[index - 3] == 13 && received[index - 2] == 10 && received[index - 1] == 13
                && received[index] == 10
            {
                return index + 1
            }
            return nil
        }
    }
}
