import Foundation
import PlatformKit
import TestSupport
import Testing

/// The client's address behind a proxy (issue 41): read from `X-Forwarded-For` only when the peer is in
/// `TRUSTED_PROXIES`, then per request, for the gateway's limit and for the services. The tests connect from
/// 127.0.0.1, which plays the proxy.
@Suite struct TrustedProxyTests {
    static let routes = RouteTable.entries + [RouteTable.Entry("/v1/echo", .social)]
    static let services: [ServiceName: TestStack.ServiceBuilder] = [.social: EchoService.build(prefix: "/v1/echo")]
    static let gatewayDetail = "Too many requests; try again later."
    static let identityDetail = "Too many attempts; try again later."

    /// A stack trusting `list`, whose identity allows one registration an hour per client.
    func withProxiedStack(
        trusting list: String, requestsPerMinute: Int = 6000, _ body: (TestStack) async throws -> Void
    ) async throws {
        let proxies = try TrustedProxies(parsing: list)
        try await withTestStack(
            services: Self.services, routes: Self.routes,
            configureIdentity: { $0.limits.registrationsPerAddress = 1 },
            configureGateway: {
                $0.trustedProxies = proxies
                $0.requestsPerMinute = requestsPerMinute
                $0.publicPaths.insert("/v1/echo/ping")
            }, body)
    }

    func echo(_ stack: TestStack, forwardedFor hops: String...) async throws -> APIResponse {
        try await stack.gateway.get("/v1/echo/ping", headers: hops.map { ("X-Forwarded-For", $0) })
    }

    func register(_ stack: TestStack, _ username: String, from hop: String) async throws -> APIResponse {
        try await stack.gateway.send(
            .POST, IdentityPaths.register,
            json: ["email": "\(username)@example.com", "username": username, "password": "a long enough passphrase"],
            headers: [("X-Forwarded-For", hop)])
    }

    @Test func clientsBehindATrustedProxyHaveTheirOwnLimitAtTheGateway() async throws {
        try await withProxiedStack(trusting: "127.0.0.1/32", requestsPerMinute: 2) { stack in
            // when: one client behind the proxy spends its two requests
            let first = try await echo(stack, forwardedFor: "203.0.113.7")
            #expect(try first.json(EchoService.Echo.self).forwardedFor == "203.0.113.7")
            #expect(try await echo(stack, forwardedFor: "203.0.113.7").status == 200)
            let refused = try await echo(stack, forwardedFor: "203.0.113.7")
            #expect(refused.status == 429)
            #expect(refused.problem?.detail == Self.gatewayDetail)
            // then: another client has its own limit, whatever it wrote left of the proxy's hop
            let second = try await echo(stack, forwardedFor: "6.6.6.6", "198.51.100.2")
            #expect(second.status == 200)
            #expect(try second.json(EchoService.Echo.self).forwardedFor == "198.51.100.2")
            // and IPv6 clients are counted by their /64
            #expect(try await echo(stack, forwardedFor: "2001:db8:1:2::a").status == 200)
            #expect(try await echo(stack, forwardedFor: "2001:db8:1:2:ffff::b").status == 200)
            #expect(try await echo(stack, forwardedFor: "2001:db8:1:2::c").status == 429)
            #expect(try await echo(stack, forwardedFor: "2001:db8:1:3::a").status == 200)
        }
    }

    @Test func identityCountsRegistrationsPerForwardedClient() async throws {
        try await withProxiedStack(trusting: "127.0.0.1/32") { stack in
            // given: a client behind the proxy registers once
            #expect(try await register(stack, "alice", from: "203.0.113.7").status == 201)
            // when: it registers again, and a second client registers
            let again = try await register(stack, "bob", from: "203.0.113.7")
            let other = try await register(stack, "carol", from: "198.51.100.2")
            // then: identity refused the first client's second registration, not the second client's
            #expect(again.status == 429)
            #expect(again.problem?.detail == Self.identityDetail)
            #expect(other.status == 201)
        }
    }

    @Test(arguments: ["", "10.0.0.0/8, ::1/128"])
    func aSpoofedHeaderFromAnUntrustedPeerChangesNothing(trusted: String) async throws {
        try await withProxiedStack(trusting: trusted, requestsPerMinute: 2) { stack in
            // when: the peer, not trusted, claims to be a new client on every request
            let first = try await echo(stack, forwardedFor: "203.0.113.7")
            let second = try await echo(stack, forwardedFor: "198.51.100.2")
            let third = try await echo(stack, forwardedFor: "192.0.2.3")
            // then: the services see the peer, and the gateway counts one client
            #expect(try first.json(EchoService.Echo.self).forwardedFor == "127.0.0.1")
            #expect(second.status == 200)
            #expect(third.status == 429)
            #expect(third.problem?.detail == Self.gatewayDetail)
            // and identity counts one client too
            stack.clock.advance(by: 60)
            #expect(try await register(stack, "alice", from: "203.0.113.7").status == 201)
            let again = try await register(stack, "bob", from: "198.51.100.2")
            #expect(again.status == 429)
            #expect(again.problem?.detail == Self.identityDetail)
        }
    }
}
