import Foundation
import PlatformKit
import TestSupport
import Testing

/// The gateway's `/metrics` answers only the service credential, and reads as an unknown path to anyone
/// else (issue 16 item 7).
@Suite struct GatewayMetricsTests {
    @Test func metricsNeedTheServiceCredential() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let unknown = try await stack.gateway.get("/v1/nothing-here")
            for headers in [
                [], [("Authorization", "Bearer \(alice.accessToken)")], [("Authorization", "Bearer wrong")],
                [("X-Internal-Token", stack.internalToken + "x")], [("Authorization", stack.internalToken)],
            ] {
                let refused = try await stack.gateway.get("/metrics", headers: headers)
                #expect(refused.status == 404, "\(headers)")
                #expect(refused.problem?.code == "no_route", "\(headers)")
                #expect(!refused.text.contains("gateway_responses"), "\(headers)")
                #expect(refused.headers.first(name: "content-type") == unknown.headers.first(name: "content-type"))
            }
            for headers in [
                [("Authorization", "Bearer \(stack.internalToken)")], [("X-Internal-Token", stack.internalToken)],
            ] {
                let metrics = try await stack.gateway.get("/metrics", headers: headers)
                #expect(metrics.status == 200, "\(headers)")
                #expect(metrics.text.contains(#"gateway_responses_total{service="identity",code="2xx"} 1"#))
                #expect(metrics.text.contains(#"gateway_responses_total{service="gateway",code="4xx"}"#))
            }
        }
    }

    @Test func withoutAConfiguredCredentialMetricsAreClosed() async throws {
        try await withTestStack(configureGateway: { $0.internalToken = nil }) { stack in
            for headers in [
                [], [("Authorization", "Bearer ")], [("X-Internal-Token", "")],
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
