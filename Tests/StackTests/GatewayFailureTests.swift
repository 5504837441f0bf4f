import Foundation
import GatewayService
import PlatformKit
import TestSupport
import Testing

/// The gateway when a service misbehaves: closed keep-alive connections, silence, headers that are not its own.
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

    /// Runs `body` with a stack whose `/v1/silent` routes to a service that never answers, the gateway waiting two
    /// seconds for a response head, and a signed-in user's token.
    func withSilentService(_ body: @Sendable (TestStack, String) async throws -> Void) async throws {
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
            try await body(stack, alice.accessToken)
        }
        await upstream.stop()
    }

    @Test func aServiceThatNeverAnswersGetsA504() async throws {
        try await withSilentService { stack, token in
            let response = try await stack.gateway.get("/v1/silent/thing", token: token)
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
    }

    /// The response-head timer is one per client connection, scheduled for the first exchange and moved on
    /// when it fires before a later exchange's deadline: that exchange still gets its full time.
    @Test func aLaterSilentRequestOnTheSameConnectionGetsItsFullTime() async throws {
        try await withSilentService { stack, token in
            let connection = try await stack.rawConnection()
            // A first exchange starts the connection's timer; the silent one starts later, so the timer
            // fires before its deadline.
            try await connection.send(RawHTTPConnection.request("GET", IdentityPaths.jwks))
            #expect(try await connection.response()?.status == 200)
            try await Task.sleep(for: .milliseconds(700))
            let clock = ContinuousClock()
            let sent = clock.now
            try await connection.send(RawHTTPConnection.request("GET", "/v1/silent/thing", token: token))
            let response = try await connection.response(timeout: .seconds(20))
            #expect(response?.status == 504)
            #expect(clock.now - sent >= .seconds(2), "answered before its own deadline")
            // The connection is still usable, and so is its timer.
            try await connection.send(RawHTTPConnection.request("GET", "/v1/silent/again", token: token))
            #expect(try await connection.response(timeout: .seconds(20))?.status == 504)
            await connection.close()
        }
    }

    @Test func aServicesOwnRequestIDAndHopByHopFieldsStopAtTheGateway() async throws {
        let chatty = try await MisbehavingUpstream.start(
            .answerWithHeaders([("X-Request-Id", "the-service-made-this-up"), ("X-Kept", "yes")]))
        let hopping = try await MisbehavingUpstream.start(
            .answerWithHeaders([("Keep-Alive", "timeout=5"), ("Connection", "keep-alive")]))
        let quiet = try await MisbehavingUpstream.start(.echo)  // sends no request id at all
        let (chattyPort, hoppingPort, quietPort) = (chatty.port, hopping.port, quiet.port)
        try await withTestStack(
            routes: RouteTable.entries + [
                RouteTable.Entry("/v1/chatty", .social), RouteTable.Entry("/v1/hopping", .geo),
                RouteTable.Entry("/v1/quiet", .habits),
            ],
            configureGateway: {
                $0.upstreams[.social] = .init(host: "127.0.0.1", port: chattyPort)
                $0.upstreams[.geo] = .init(host: "127.0.0.1", port: hoppingPort)
                $0.upstreams[.habits] = .init(host: "127.0.0.1", port: quietPort)
            }
        ) { stack in
            let alice = try await stack.register("alice", via: stack.direct(.identity))
            let connection = try await stack.rawConnection()
            let paths = ["/v1/chatty/thing", "/v1/hopping/thing", "/v1/quiet/thing"]
            for (index, path) in paths.enumerated() {
                let id = "client-id-000\(index)"
                try await connection.send(
                    RawHTTPConnection.request("GET", path, token: alice.accessToken, headers: [("X-Request-Id", id)]))
                let response = try #require(try await connection.response(), "\(path)")
                #expect(response.status == 200, "\(path)")
                let ids = response.headers.filter { $0.name.lowercased() == "x-request-id" }.map(\.value)
                #expect(ids == [id], "\(path)")
                #expect(response.header("keep-alive") == nil && response.header("connection") == nil, "\(path)")
                if path.hasPrefix("/v1/chatty") { #expect(response.header("x-kept") == "yes") }
            }
            await connection.close()
            #expect(chatty.requests.count == 1 && hopping.requests.count == 1 && quiet.requests.count == 1)
        }
        await chatty.stop()
        await hopping.stop()
        await quiet.stop()
    }
}
