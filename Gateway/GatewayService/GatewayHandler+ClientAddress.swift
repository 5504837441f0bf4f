import NIOCore
import NIOHTTP1
import PlatformKit

/// The client's address, which the gateway's rate limit counts and the services receive as `X-Forwarded-For`.
extension GatewayHandler {
    /// Reads the peer's address, once per connection: the client, unless the peer is a trusted proxy.
    func readPeerAddress(_ channel: any Channel) {
        guard let text = channel.remoteAddress?.ipAddress else { return }
        guard let peer = IPAddress(text) else {
            client = ClientAddress(text)
            return
        }
        client = ClientAddress(peer)
        if core.configuration.trustedProxies.contains(peer) { trustedPeer = peer }
    }

    /// Behind a trusted proxy, reads the request's client from its `X-Forwarded-For` (one proxy connection carries
    /// many clients): the right-most hop that is not a trusted proxy.
    func readForwardedClient(_ head: HTTPRequestHead, proxy: IPAddress) {
        let hops = head.headers[PlatformHeaders.forwardedFor]
        client = ClientAddress(core.configuration.trustedProxies.client(peer: proxy, forwardedFor: hops))
    }
}
