import Foundation
import HabitsService
import Hummingbird
import Logging
import OTel
import PlatformKit
import ServiceKit
import ServiceLifecycle
import SocialService
import TestSupport
import Testing
import Tracing

/// One trace across the platform: the gateway, a service, and the internal call it makes (issue 23, traces).
///
/// Each component gets its own tracer, exporting to a fake OTLP collector, through its settings (the gateway's
/// configuration, each service's settings) rather than the process-global `InstrumentationSystem`: that can be
/// bootstrapped only once per process, would name every span after one service, and would send the spans of
/// every other test running in this process to this collector too.
@Suite struct TracingTests {
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let clientSpan = "00f067aa0ba902b7"

    /// OTLP span kinds.
    static let server = 2
    static let client = 3

    /// Identity, social and habits behind the gateway, each exporting spans to `collector`; `ann` is signed up.
    static func withTracedStack(
        _ body: (_ stack: TestStack, _ collector: FakeOTLPCollector, _ ann: TestUser) async throws -> Void
    ) async throws {
        let collector = try await FakeOTLPCollector.start()
        var tracing: [String: any Tracer] = [:]
        var exporters: [any Service] = []
        for name in ["gateway", "identity", "habits", "social"] {
            let backend = try Observability.makeTracing(service: name) { configuration in
                configuration.traces.otlpExporter.endpoint = collector.endpoint
                configuration.traces.otlpExporter.protocol = .httpJSON
                // Batches leave every 20 ms; the test waits for them with a deadline rather than a fixed sleep.
                configuration.traces.batchSpanProcessor.scheduleDelay = .milliseconds(20)
            }
            tracing[name] = backend.tracer
            exporters.append(backend.exporter)
        }
        let exporting = ServiceGroup(configuration: .init(services: exporters, logger: Logger(label: "test-otel")))
        let running = Task { try await exporting.run() }
        let social = LateServiceURL()
        let tracers = tracing
        do {
            try await withTestStack(
                services: [
                    .social: { settings in
                        var settings = settings
                        settings.tracer = tracers["social"]
                        return try await buildSocialApplication(SocialConfiguration(settings: settings))
                    },
                    .habits: habits(askingSocialAt: social, tracer: tracers["habits"]),
                ],
                configureIdentity: { $0.settings.tracer = tracers["identity"] },
                configureGateway: { $0.tracer = tracers["gateway"] }
            ) { stack in
                social.url = stack.serviceURLs[.social] ?? ""
                try await body(stack, collector, try await stack.register("ann"))
            }
        } catch {
            await exporting.triggerGracefulShutdown()
            await collector.stop()
            throw error
        }
        await exporting.triggerGracefulShutdown()
        _ = try? await running.value
        await collector.stop()
    }

    /// Builds habits with its follow graph at `social` (known only once the stack has started it), and `tracer`.
    static func habits(askingSocialAt social: LateServiceURL, tracer: (any Tracer)? = nil) -> TestStack.ServiceBuilder {
        { settings in
            var settings = settings
            settings.tracer = tracer
            return try await buildHabitsApplication(
                HabitsConfiguration(
                    settings: settings,
                    followGraph: SocialGraphClient(address: .late { social.url }, token: settings.internalToken)))
        }
    }

    @Test func aClientsTraceRunsThroughTheGatewayAServiceAndItsInternalCall() async throws {
        try await Self.withTracedStack { stack, collector, ann in
            // when a client in a trace asks for the habits of those it follows (habits asks social who they are)
            let response = try await stack.gateway.get(
                HabitsPaths.following, token: ann.accessToken,
                headers: [("traceparent", "00-\(Self.traceID)-\(Self.clientSpan)-01"), ("tracestate", "vendor=1")])
            #expect(response.status == 200, "\(response.text)")
            // then the gateway, habits, habits' call to social and social each exported a span of that trace
            let spans = try await collector.spans { $0.filter { $0.traceID == Self.traceID }.count >= 4 }
                .filter { $0.traceID == Self.traceID }
            let gateway = try #require(spans.first { $0.service == "gateway" }, "\(spans)")
            let habits = try #require(spans.first { $0.service == "habits" && $0.kind == Self.server }, "\(spans)")
            let call = try #require(spans.first { $0.service == "habits" && $0.kind == Self.client }, "\(spans)")
            let social = try #require(spans.first { $0.service == "social" && $0.kind == Self.server }, "\(spans)")
            #expect(spans.count == 4, "\(spans)")
            // each the child of the one before: client, gateway, habits, its call, social
            #expect(gateway.parentSpanID == Self.clientSpan)
            #expect(habits.parentSpanID == gateway.spanID)
            #expect(call.parentSpanID == habits.spanID)
            #expect(social.parentSpanID == call.spanID)
            #expect(Set([gateway.spanID, habits.spanID, call.spanID, social.spanID]).count == 4)
            // named for what they did
            #expect(gateway.name == "GET habits")
            #expect(habits.name == "GET /v1/habits/following")
            #expect(call.name == "GET social")
            #expect(social.name == "GET \(SocialPaths.internalUsers)/{user}/following-ids")
        }
    }

    @Test func withoutATraceparentTheGatewayStartsATraceTheServicesContinue() async throws {
        try await Self.withTracedStack { stack, collector, ann in
            // when a client sends no trace context, and then an invalid one (ignored, never an error)
            for headers in [[], [("traceparent", "00-\(Self.traceID.uppercased())-\(Self.clientSpan)-01")]] {
                let response = try await stack.gateway.get(
                    HabitsPaths.following, token: ann.accessToken, headers: headers)
                #expect(response.status == 200, "\(response.text)")
            }
            // then the gateway started a trace for each, and habits and social continued it
            func roots(_ spans: [FakeOTLPCollector.ExportedSpan]) -> [FakeOTLPCollector.ExportedSpan] {
                spans.filter { $0.service == "gateway" && $0.name == "GET habits" }
            }
            let spans = try await collector.spans { spans in
                let roots = roots(spans)
                // Each service exports on its own schedule: wait for habits' span too, not only social's.
                return roots.count == 2
                    && roots.allSatisfy { root in
                        spans.contains { $0.service == "social" && $0.traceID == root.traceID }
                            && spans.contains {
                                $0.service == "habits" && $0.kind == Self.server && $0.traceID == root.traceID
                            }
                    }
            }
            let gateways = roots(spans)
            #expect(gateways.count == 2, "\(spans)")
            #expect(Set(gateways.map(\.traceID)).count == 2)
            for gateway in gateways {
                #expect(gateway.parentSpanID == nil)
                #expect(gateway.traceID != Self.traceID.lowercased() && gateway.traceID.count == 32)
                let habits = spans.first {
                    $0.service == "habits" && $0.kind == Self.server && $0.traceID == gateway.traceID
                }
                #expect(habits?.parentSpanID == gateway.spanID)
                #expect(spans.contains { $0.service == "social" && $0.traceID == gateway.traceID })
            }
        }
    }
}
