import Foundation
import PlatformKit
import SocialService
import TestSupport
import Testing

/// `/metrics`, at the gateway and at every service, answers only the scrape credential (`METRICS_TOKEN`) and reads
/// as an unknown path to anyone else, the service credential included; the scrape credential opens nothing else
/// (issue 41 item 5).
@Suite struct GatewayMetricsTests {
    @Test func metricsNeedTheScrapeCredential() async throws {
        try await withTestStack(services: [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) }
        ]) { stack in
            let alice = try await stack.register("alice")
            let unknown = try await stack.gateway.get("/v1/nothing-here")
            for headers in [
                [], [("Authorization", "Bearer \(alice.accessToken)")], [("Authorization", "Bearer wrong")],
                [("Authorization", "Bearer \(stack.internalToken)")], [("X-Internal-Token", stack.internalToken)],
                [("X-Internal-Token", stack.metricsToken)], [("Authorization", stack.metricsToken)],
            ] {
                let refused = try await stack.gateway.get("/metrics", headers: headers)
                #expect(refused.status == 404, "\(headers)")
                #expect(refused.problem?.code == "no_route", "\(headers)")
                #expect(!refused.text.contains("gateway_responses"), "\(headers)")
                #expect(refused.headers.first(name: "content-type") == unknown.headers.first(name: "content-type"))
                for service in [ServiceName.identity, .social] {
                    let direct = try await stack.direct(service).get("/metrics", headers: headers)
                    #expect(direct.status == 404, "\(service) \(headers)")
                    #expect(!direct.text.contains("http_requests_total"), "\(service) \(headers)")
                }
            }
            let scrape = [("Authorization", "Bearer \(stack.metricsToken)")]
            let metrics = try await stack.gateway.get("/metrics", headers: scrape)
            #expect(metrics.status == 200)
            #expect(metrics.text.contains(#"gateway_responses_total{service="identity",code="2xx"} 1"#))
            #expect(metrics.text.contains(#"gateway_responses_total{service="gateway",code="4xx"}"#))
            for service in [ServiceName.identity, .social] {
                let direct = try await stack.direct(service).get("/metrics", headers: scrape)
                #expect(direct.status == 200, "\(service)")
                #expect(direct.text.contains("http_requests_total"), "\(service)")
            }
        }
    }

    @Test func theScrapeCredentialOpensNoInternalRoute() async throws {
        try await withTestStack { stack in
            _ = try await stack.register("alice")
            let path = IdentityPaths.internalUserByUsername + "/alice"
            let identity = stack.direct(.identity)
            #expect(try await identity.get(path, headers: [("X-Internal-Token", stack.internalToken)]).status == 200)
            for headers in [
                [("X-Internal-Token", stack.metricsToken)], [("Authorization", "Bearer \(stack.metricsToken)")],
            ] {
                let refused = try await identity.get(path, headers: headers)
                #expect(refused.status == 403, "\(headers)")
                #expect(refused.problem?.code == "internal_only", "\(headers)")
            }
        }
    }

    @Test func withoutAConfiguredCredentialMetricsAreClosed() async throws {
        try await withTestStack(configureGateway: { $0.metricsToken = nil }) { stack in
            for headers in [
                [], [("Authorization", "Bearer ")], [("Authorization", "Bearer \(stack.metricsToken)")],
                [("X-Internal-Token", stack.internalToken)],
            ] {
                let refused = try await stack.gateway.get("/metrics", headers: headers)
                #expect(refused.status == 404, "\(headers)")
                #expect(refused.problem?.code == "no_route")
            }
            #expect(try await stack.gateway.get("/health/live").status == 200)
        }
    }
}
