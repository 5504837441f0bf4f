import NIOCore
import Synchronization

/// Counts the client connections the gateway holds, in total and by peer address, against the configured caps
/// (``GatewayConfiguration/maximumConnections``, ``GatewayConfiguration/maximumConnectionsPerAddress``).
///
/// Counted per connection, not per request: a lock taken twice in a connection's life costs nothing the relay
/// notices. The address is the socket's peer, as the rate limiter's `clientAddress` is.
final class ConnectionLimiter: Sendable {
    private let total: Int
    private let perAddress: Int
    private let counts = Mutex((open: 0, byAddress: [String: Int]()))

    init(total: Int, perAddress: Int) {
        self.total = total
        self.perAddress = perAddress
    }

    /// Counts one more connection from `address`, unless a cap is reached.
    func admit(_ address: String) -> Bool {
        counts.withLock { counts in
            let fromAddress = counts.byAddress[address, default: 0]
            guard counts.open < total, fromAddress < perAddress else { return false }
            counts.open += 1
            counts.byAddress[address] = fromAddress + 1
            return true
        }
    }

    /// Forgets an admitted connection that closed.
    func release(_ address: String) {
        counts.withLock { counts in
            counts.open -= 1
            let fromAddress = counts.byAddress[address, default: 1] - 1
            counts.byAddress[address] = fromAddress > 0 ? fromAddress : nil
        }
    }

    /// The server channel's first handler: closes an accepted connection over a cap before anything is read
    /// from it. Closed rather than answered 503: an answer means reading the request first (closing with unread
    /// bytes resets the connection and loses the answer), the very work the cap is there to refuse; a client
    /// treats the reset like a refused connection and retries later.
    final class Handler: ChannelInboundHandler {
        typealias InboundIn = any Channel
        typealias InboundOut = any Channel
        let limiter: ConnectionLimiter

        init(limiter: ConnectionLimiter) {
            self.limiter = limiter
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let channel = unwrapInboundIn(data)
            let address = channel.remoteAddress?.ipAddress ?? "unknown"
            guard limiter.admit(address) else { return channel.close(promise: nil) }
            let limiter = limiter
            channel.closeFuture.whenComplete { _ in limiter.release(address) }
            context.fireChannelRead(data)
        }
    }
}
