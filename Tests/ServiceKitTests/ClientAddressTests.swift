import PlatformKit
import TestSupport
import Testing

/// Addresses as rate limits key them (issue 41): IPv4 whole, IPv6 by its /64.
@Suite struct ClientAddressTests {
    @Test(arguments: [
        ("203.0.113.7", "203.0.113.7"),
        ("::ffff:203.0.113.7", "203.0.113.7"),
        ("::FFFF:cb00:7107", "203.0.113.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:0DB8:0001:0002:ffff::1", "2001:db8:1:2::/64"),
        ("2001:db8::", "2001:db8::/64"),
        ("::1", "::/64"),
        ("unknown", "unknown"),
        ("203.0.113.256", "203.0.113.256"),
    ])
    func addressesAreKeyedIPv4WholeAndIPv6ByTheir64(address: String, key: String) {
        #expect(RateLimiter.key(forAddress: address) == key)
        #expect(ClientAddress(address).limiterKey == key)
    }

    @Test func anIPv6ClientRotatingWithinIts64SharesOneBucket() {
        let limiter = RateLimiter(capacity: 2, period: 60, clock: ManualClock().wallClock)
        #expect(limiter.acquire(RateLimiter.key(forAddress: "2001:db8:a:b::1")) == nil)
        #expect(limiter.acquire(RateLimiter.key(forAddress: "2001:db8:a:b:dead:beef:0:2")) == nil)
        #expect(limiter.acquire(RateLimiter.key(forAddress: "2001:db8:a:b:ffff::3")) != nil)
        #expect(limiter.acquire(RateLimiter.key(forAddress: "2001:db8:a:c::1")) == nil, "the next /64 is someone else")
    }

    @Test(arguments: [
        ("0.0.0.0", "0.0.0.0"), ("255.255.255.255", "255.255.255.255"), ("::", "::"), ("0:0:0:0:0:0:0:0", "::"),
        ("1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"), ("1::", "1::"), ("2001:db8::0:1", "2001:db8::1"),
        ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"), ("2001:0:0:1:0:0:0:1", "2001:0:0:1::1"),
        ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"), ("::ffff:0.0.0.1", "0.0.0.1"),
    ])
    func addressesAreWrittenCanonically(text: String, canonical: String) {
        #expect(IPAddress(text)?.description == canonical)
    }

    @Test(arguments: [
        "", "1.2.3", "1.2.3.4.5", "1.2.3.256", "1.2.3.-4", "1.2.3.1234", "1..2.3", "fe80::1%eth0", "[::1]",
        "1.2.3.4:80", ":1", "1:", "1:::2", "1::2::3", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", "12345::", "g::",
        "+1::", "::1.2.3", "1.2.3.4::", "::1.2.3.4:5", "unknown", String(repeating: "1", count: 46),
    ])
    func malformedAddressesAreRefused(text: String) {
        #expect(IPAddress(text) == nil)
    }
}

/// Whose `X-Forwarded-For` is believed, and which hop is the client (issue 41).
@Suite struct TrustedProxiesTests {
    let proxies: TrustedProxies

    init() throws {
        proxies = try TrustedProxies(parsing: " 10.0.0.0/8,192.0.2.1 , fd00::/8")
    }

    func client(_ peer: String, _ fields: [String]) -> String {
        proxies.client(peer: IPAddress(peer)!, forwardedFor: fields).description
    }

    @Test func rangesContainTheirAddresses() throws {
        for inside in ["10.255.0.1", "::ffff:10.1.2.3", "192.0.2.1", "fd12::1"] {
            #expect(proxies.contains(IPAddress(inside)!), "\(inside)")
        }
        for outside in ["11.0.0.1", "192.0.2.2", "fe00::1", "::a00:1"] {
            #expect(!proxies.contains(IPAddress(outside)!), "\(outside)")
        }
        #expect(try TrustedProxies(parsing: "").isEmpty)
        #expect(try TrustedProxies(parsing: " , ").isEmpty)
        let everyIPv4 = try TrustedProxies(parsing: "0.0.0.0/0")
        #expect(everyIPv4.contains(IPAddress("8.8.8.8")!) && !everyIPv4.contains(IPAddress("2001:db8::1")!))
        #expect(try TrustedProxies(parsing: "::/0").contains(IPAddress("2001:db8::1")!))
    }

    @Test(arguments: [
        "10.0.0.0/33", "10.0.0.1/8", "10.0.0.0/", "10.0.0.0/x", "10.0.0.0/+8", "10.0.0.0/0008", "fd00::/129",
        "fd00::1/8", "example.com", "10.0.0.0/8/8", "::1/-1", "10.0.0.0 /8",
    ])
    func malformedEntriesAreRefused(entry: String) {
        #expect(throws: TrustedProxies.InvalidEntry.self) { try TrustedProxies(parsing: "10.0.0.0/8, \(entry)") }
    }

    @Test func theRightMostUntrustedHopIsTheClient() {
        #expect(client("10.0.0.5", ["203.0.113.7"]) == "203.0.113.7")
        #expect(
            client("10.0.0.5", ["6.6.6.6, 203.0.113.7, 10.1.1.1"]) == "203.0.113.7",
            "what the client wrote left of the proxy's hop is not believed")
        #expect(client("10.0.0.5", ["6.6.6.6", "203.0.113.7 , 10.1.1.1", "192.0.2.1"]) == "203.0.113.7")
        #expect(client("::ffff:10.0.0.5", ["2001:db8::7"]) == "2001:db8::7")
        #expect(client("fd00::5", ["::ffff:198.51.100.1"]) == "198.51.100.1")
        #expect(client("10.0.0.5", ["203.0.113.7,, ", ""]) == "203.0.113.7", "empty list elements are ignored")
    }

    @Test func aMalformedHopEndsTheWalk() {
        #expect(client("10.0.0.5", ["203.0.113.7, garbage"]) == "10.0.0.5")
        #expect(client("10.0.0.5", ["203.0.113.7, unknown, 10.1.1.1"]) == "10.1.1.1")
        #expect(client("10.0.0.5", ["[2001:db8::1]:443"]) == "10.0.0.5")
    }

    @Test func whenEveryHopIsTrustedTheLeftMostIsTheClient() {
        #expect(client("10.0.0.5", ["10.9.9.9, 10.1.1.1", "192.0.2.1"]) == "10.9.9.9")
        #expect(client("10.0.0.5", []) == "10.0.0.5", "without the header, the proxy itself")
    }

    @Test func anUntrustedPeersHeaderIsIgnored() {
        #expect(client("203.0.113.9", ["198.51.100.1"]) == "203.0.113.9")
        #expect(client("10.0.0.5", ["198.51.100.1, 203.0.113.9"]) == "203.0.113.9")
        let none = TrustedProxies()
        #expect(none.client(peer: IPAddress("127.0.0.1")!, forwardedFor: ["198.51.100.1"]).description == "127.0.0.1")
    }
}
