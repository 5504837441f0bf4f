import NIOCore
import PlatformKit
import Synchronization

/// Counts the client connections the gateway holds, in total and by peer address, against the configured caps
/// (``GatewayConfiguration/maximumConnections``, ``GatewayConfiguration/maximumConnectionsPerAddress``).
///
/// Counted per connection, not per request: a lock taken twice in a connection's life costs nothing the relay
/// notices. The address is the socket's peer keyed as the rate limiter keys it (an IPv6 peer by its /64); a trusted
/// proxy (``GatewayConfiguration/trustedProxies``), which carries many clients, counts only towards the total.
final class ConnectionLimiter: Sendable {
    private let total: Int
    private let perAddress: Int
    private let trustedProxies: TrustedProxies
    private let counts = Mutex((open: 0, byAddress: [String: Int]()))

    init(total: Int, perAddress: Int, trustedProxies: TrustedProxies = TrustedProxies()) {
        self.total = total
        self.perAddress = perAddress
        self.trustedProxies = trustedProxies
    }

    /// The key `peer` is counted under, or `nil` for a trusted proxy (counted in the total only).
    func key(forPeer peer: String) -> String? {
        guard let address = IPAddress(peer) else { return peer }
        return trustedProxies.contains(address) ? nil : address.limiterKey
    }

    /// Counts one more connection under `key` (see ``key(forPeer:)``), unless a cap is reached.
    func admit(_ key: String?) -> Bool {
        counts.withLock { counts in
            guard counts.open < total else { return false }
            guard let key else {
                counts.open += 1
                return true
            }
            let fromAddress = counts.byAddress[key, default: 0]
            guard fromAddress < perAddress else { return false }
            counts.open += 1
            counts.byAddress[key] = fromAddress + 1
            return true
        }
    }

    /// Forgets an admitted connection that closed.
    func release(_ key: String?) {
        counts.withLock { counts in
            counts.open -= 1
            guard let key else { return }
            let fromAddress = counts.byAddress[key, default: 1] - 1
            counts.byAddress[key] = fromAddress > 0 ? fromAddress : nil
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
            let key = limiter.key(forPeer: channel.remoteAddress?.ipAddress ?? "unknown")
            guard limiter.admit(key) else { return channel.close(promise: nil) }
            let limiter = limiter
            channel.closeFuture.whenComplete { _ in limiter.release(key) }
            context.fireChannelRead(data)
        }
    }
}
