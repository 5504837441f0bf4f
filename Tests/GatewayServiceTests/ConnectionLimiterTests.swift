import PlatformKit
import Testing

@testable import GatewayService

/// The connection caps count peers as the rate limiter keys them; a trusted proxy counts only towards the total.
@Suite struct ConnectionLimiterTests {
    @Test func anAddressIsCappedAndAnIPv6ClientCountsByItsSlash64() {
        let limiter = ConnectionLimiter(total: 10, perAddress: 2)
        let first = limiter.key(forPeer: "2001:db8:1:2::10")
        let second = limiter.key(forPeer: "2001:db8:1:2:ffff::1")
        #expect(first == second)
        #expect(limiter.admit(first) && limiter.admit(second))
        #expect(!limiter.admit(limiter.key(forPeer: "2001:db8:1:2::99")), "a third from the same /64")
        #expect(limiter.admit(limiter.key(forPeer: "2001:db8:1:3::1")), "another /64")
        limiter.release(first)
        #expect(limiter.admit(limiter.key(forPeer: "2001:db8:1:2::99")), "room again once one closed")
    }

    @Test func aTrustedProxyIsHeldOnlyToTheTotal() throws {
        let limiter = ConnectionLimiter(
            total: 5, perAddress: 1, trustedProxies: try TrustedProxies(parsing: "10.0.0.0/8"))
        let proxy = limiter.key(forPeer: "10.1.2.3")
        #expect(proxy == nil)
        for _ in 0..<5 { #expect(limiter.admit(proxy)) }
        #expect(!limiter.admit(proxy), "the total still holds")
        #expect(!limiter.admit(limiter.key(forPeer: "192.0.2.1")))
        limiter.release(proxy)
        #expect(limiter.admit(limiter.key(forPeer: "192.0.2.1")))
        #expect(!limiter.admit(limiter.key(forPeer: "192.0.2.1")), "one per address")
    }
}
