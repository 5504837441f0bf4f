import Foundation
import IdentityService
import PlatformKit
import TestSupport
import Testing

/// The gateway's own behaviour: routing, refusals, forwarded headers, outages.
@Suite struct GatewayTests {
    static let routes = RouteTable.entries + [RouteTable.Entry("/v1/echo", .social)]
    static let services: [ServiceName: TestStack.ServiceBuilder] = [.social: EchoService.build(prefix: "/v1/echo")]

    func withEchoStack(_ body: (TestStack, TestUser) async throws -> Void) async throws {
        try await withTestStack(services: Self.services, routes: Self.routes) { stack in
            try await body(stack, try await stack.register("alice"))
        }
    }

    @Test func aStoppedServiceAnswers503WhileOthersStillWork() async throws {
        try await withEchoStack { stack, alice in
            #expect(try await stack.gateway.get("/v1/echo/ping", token: alice.accessToken).status == 200)
            // when
            await stack.stop("social")
            // then
            let start = ContinuousClock.now
            let down = try await stack.gateway.get("/v1/echo/ping", token: alice.accessToken)
            #expect(down.status == 503)
            #expect(down.problem?.code == "service_unavailable")
            #expect(down.headers.first(name: "retry-after") == "1")
            // Fast: not after the response-head timeout (30 s). Alone this takes milliseconds; the whole suite
            // shares two cores.
            #expect(ContinuousClock.now - start < .seconds(10), "a refused upstream fails fast")
            #expect(try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).status == 200)
        }
    }

    @Test func stoppingIdentityLeavesOtherServicesReachable() async throws {
        try await withEchoStack { stack, alice in
            let before = try await stack.gateway.get("/v1/echo/ping", token: alice.accessToken)
            #expect(before.status == 200)
            await stack.stop("identity")
            #expect(try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).status == 503)
            #expect(try await stack.gateway.get("/v1/echo/ping", token: alice.accessToken).status == 200)
        }
    }

    @Test func theGatewayChecksTokensBeforeForwarding() async throws {
        try await withEchoStack { stack, _ in
            let response = try await stack.gateway.get("/v1/echo/ping")
            #expect(response.status == 401)
            #expect(response.problem?.statusCode == 401)
            #expect((try? response.decode(EchoService.Echo.self)) == nil, "the echo service was never reached")
        }
    }

    @Test func forwardedRequestsCarryOurHeadersNotTheClients() async throws {
        try await withEchoStack { stack, alice in
            let response = try await stack.gateway.send(
                .GET, "/v1/echo/ping?x=1", token: alice.accessToken,
                headers: [
                    ("X-Forwarded-For", "6.6.6.6"), ("X-Internal-Token", stack.internalToken),
                    ("X-Request-Id", "client-chosen-id-1"),
                ])
            let echo = try response.json(EchoService.Echo.self)
            #expect(echo.forwardedFor == "127.0.0.1")
            #expect(echo.internalToken == nil)
            #expect(echo.requestID == "client-chosen-id-1")
            #expect(response.headers.first(name: "x-request-id") == "client-chosen-id-1")
            #expect(echo.authorization == "Bearer \(alice.accessToken)", "services verify the token again")
            let generated = try await stack.gateway.get(
                "/v1/echo/ping", token: alice.accessToken, headers: [("X-Request-Id", "bad id!")])
            let generatedEcho = try generated.json(EchoService.Echo.self)
            #expect(generatedEcho.requestID != "bad id!")
            #expect(generatedEcho.requestID == generated.headers.first(name: "x-request-id"))
        }
    }

    @Test func bodiesAreForwardedAndOversizedOnesRefused() async throws {
        try await withEchoStack { stack, alice in
            let fine = try await stack.gateway.send(
                .POST, "/v1/echo/upload", token: alice.accessToken, body: Data(count: 1 << 20))
            #expect(try fine.json(EchoService.Echo.self).bodyBytes == 1 << 20)
            let huge = try await stack.gateway.send(
                .POST, "/v1/echo/upload", token: alice.accessToken, body: Data(count: (10 << 20) + 1))
            #expect(huge.status == 413)
            #expect(huge.problem?.code == "payload_too_large")
        }
    }

    @Test(arguments: [
        ("/internal/users/batch", 404, "no_route"),
        ("/v1/nothing-here", 404, "no_route"),
        ("/v1/users/../../internal/users/batch", 400, "invalid_path"),
        ("/v1/users/%2e%2e/internal", 400, "invalid_path"),
        ("/v1/users//me", 400, "invalid_path"),
    ])
    func pathsOutsideTheRouteTableAreRefused(path: String, status: Int, code: String) async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let response = try await stack.gateway.send(
                .POST, path, token: alice.accessToken, json: ["ids": [alice.id]],
                headers: [("X-Internal-Token", stack.internalToken)])
            #expect(response.status == status)
            #expect(response.problem?.code == code)
        }
    }

    @Test func eachClientAddressIsLimitedUntilTheWindowRefills() async throws {
        try await withTestStack(configureGateway: { $0.requestsPerMinute = 3 }) { stack in
            let statuses = try await [1, 2, 3, 4].asyncMap { _ in try await stack.gateway.get(IdentityPaths.jwks) }
            #expect(statuses.map(\.status) == [200, 200, 200, 429])
            #expect(statuses.last?.problem?.code == "rate_limited")
            #expect(statuses.last?.headers.first(name: "retry-after") == "20")
            let probe = try await stack.gateway.get("/health/live")
            #expect(probe.status == 200, "the gateway's own probes are not limited")
            stack.clock.advance(by: 20)
            #expect(try await stack.gateway.get(IdentityPaths.jwks).status == 200)
        }
    }

    @Test func healthMetricsAndTheMergedOpenAPIDocument() async throws {
        try await withTestStack { stack in
            #expect(try await stack.gateway.get("/health/live").status == 200)
            #expect(try await stack.gateway.get("/health/ready").status == 200)
            _ = try await stack.register("alice")
            let metrics = try await stack.gateway.get(
                "/metrics", headers: [("Authorization", "Bearer \(stack.metricsToken)")])
            #expect(metrics.text.contains(#"gateway_responses_total{service="identity",code="2xx"} 1"#))
            let document = try await stack.gateway.get("/openapi.json")
            let paths = try #require(document.object["paths"] as? [String: Any])
            #expect(paths[IdentityPaths.register] != nil)
            #expect(paths["/v1/users/{id}/avatar"] != nil)
            let identityMetrics = try await stack.direct(.identity).get(
                "/metrics", headers: [("Authorization", "Bearer \(stack.metricsToken)")])
            #expect(identityMetrics.text.contains("http_requests_total"))
        }
    }
}

/// The service-to-service routes: reachable with the service credential only, never through the gateway.
@Suite struct InternalRouteTests {
    @Test func internalLookupsNeedTheServiceCredential() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let identity = stack.direct(.identity)
            let anonymous = try await identity.post(IdentityPaths.internalUsersBatch, json: ["ids": [alice.id]])
            #expect(anonymous.status == 403)
            let asUser = try await identity.post(
                IdentityPaths.internalUsersBatch, token: alice.accessToken, json: ["ids": [alice.id]])
            #expect(asUser.status == 403)
            let batch = try await identity.send(
                .POST, IdentityPaths.internalUsersBatch, json: ["ids": [alice.id, "missing"]],
                headers: [("X-Internal-Token", stack.internalToken)])
            #expect(batch.status == 200)
            let users = try batch.decode(WireUserBatch.self).users
            #expect(users.map(\.username) == ["alice"])
            let byName = try await identity.send(
                .GET, IdentityPaths.internalUserByUsername + "/ALICE",
                headers: [("X-Internal-Token", stack.internalToken)])
            #expect(try byName.decode(WirePublicProfile.self).id == alice.id)
        }
    }

    @Test func onlyTheOperatorsCommandGrantsRolesAndTheyReachTheNextAccessToken() async throws {
        try await withTestStack { stack in
            // given
            let alice = try await stack.register("alice")
            let service = [(PlatformHeaders.internalToken, stack.internalToken)]
            // when the credential every service holds asks for the route that granted roles before issue 41
            let oldRoute = "/internal/users/\(alice.id)/roles"
            let withCredential = try await stack.direct(.identity).send(
                .PUT, oldRoute, json: ["roles": ["admin"]], headers: service)
            // then no route grants a role
            #expect(withCredential.status == 404)
            #expect(
                try await stack.gateway.send(.PUT, oldRoute, token: alice.accessToken, json: ["roles": ["admin"]])
                    .status == 404)
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self).roles
                    == [])

            // when the operator grants it in identity's container
            #expect(
                try await stack.roles(.grant(role: "admin", user: "alice"))
                    == "granted admin to alice (\(alice.id)); it reaches the user's next access token "
                    + "(a refresh, within 15 minutes)")
            // then it reaches the next access token
            let refreshed = try await stack.gateway.post(
                IdentityPaths.refresh, json: ["refreshToken": alice.refreshToken])
            let pair = try refreshed.decode(WireTokenPair.self)
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: pair.accessToken).decode(WireMyProfile.self).roles
                    == ["admin"])
            let payload = try #require(pair.accessToken.split(separator: ".").dropFirst().first)
            var base64 = payload.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
            let claims = try JSONDecoder().decode(
                WireAccessClaims.self, from: try #require(Data(base64Encoded: base64)))
            #expect(claims.sub == alice.id)
            #expect(claims.roles == ["admin"])

            // when the operator revokes it
            #expect(
                try await stack.roles(.revoke(role: "admin", user: "alice@example.com"))
                    == "revoked admin from alice (\(alice.id)); 1 session ended, so no token carries it")
            // then her session has ended: its refresh token at once, its access token at the gateway on its next poll
            let again = try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": pair.refreshToken])
            #expect(again.problem?.code == "invalid_refresh_token")
            #expect(
                try await eventually(within: .seconds(90)) {
                    try await stack.gateway.get(IdentityPaths.me, token: pair.accessToken).problem?.code
                        == "session_ended"
                })
            #expect(try await stack.roles(.list(user: nil)) == "no user holds a role")
        }
    }
}

extension Array {
    /// Maps in order, one element at a time.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
