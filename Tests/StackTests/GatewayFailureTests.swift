import Foundation
import GatewayService
import PlatformKit
import TestSupport
import Testing

/// The gateway when a service misbehaves: closed keep-alive connections, silence.
@Suite struct GatewayFailureTests {
    @Test func aPooledConnectionTheServiceClosedIsRetriedOnANewOne() async throws {
        let upstream = try await MisbehavingUpstream.start(.closeSecondRequestOnEachConnection)
        let port = upstream.port
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/flaky", .social)],
            configureGateway: { $0.upstreams[.social] = .init(host: "127.0.0.1", port: port) }
        ) { stack in
            let alice = try await stack.register("alice")
            for attempt in 1...3 {
                let response = try await stack.gateway.get("/v1/flaky/thing", token: alice.accessToken)
                #expect(response.status == 200, "request \(attempt)")
            }
            #expect(upstream.connectionCount == 3, "each retry opened a fresh connection")
        }
        await upstream.stop()
    }

    @Test func aServiceThatNeverAnswersGetsA504() async throws {
        let upstream = try await MisbehavingUpstream.start(.neverAnswer)
        let port = upstream.port
        try await withTestStack(
            routes: RouteTable.entries + [RouteTable.Entry("/v1/silent", .social)],
            configureGateway: {
                $0.upstreams[.social] = .init(host: "127.0.0.1", port: port)
                // Short enough to wait for; the registration (bcrypt) goes to identity directly, since under a
                // full parallel test run on two cores it can take longer than this.
                $0.responseHeadTimeout = .seconds(2)
            }
        ) { stack in
            let alice = try await stack.register("alice", via: stack.direct(.identity))
            let response = try await stack.gateway.get("/v1/silent/thing", token: alice.accessToken)
            #expect(response.status == 504)
            #expect(response.problem?.code == "gateway_timeout")
            // the gateway still serves other routes (on a loaded machine identity itself may need more than the
            // two seconds once; a few tries tell "slow" from "broken")
            var status = 0
            for _ in 0..<3 where status != 200 {
                status = try await stack.gateway.get(IdentityPaths.jwks).status
            }
            #expect(status == 200)
        }
        await upstream.stop()
    }
}
