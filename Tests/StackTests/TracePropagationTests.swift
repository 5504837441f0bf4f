import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PlatformKit
import ServiceKit
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

/// With tracing off (no exporter anywhere) trace context is still carried, so log lines can be followed across
/// services: through the gateway to habits and on to the social graph, with the request id.
@Suite struct TracePropagationTests {
    /// What the social graph stand-in received on its internal route.
    struct Received: Sendable {
        var traceparent: String?
        var tracestate: String?
        var requestID: String?
    }

    final class Recorder: Sendable {
        let received = Mutex<[Received]>([])
        var all: [Received] { received.withLock { $0 } }
    }

    /// Habits behind the gateway, calling a stand-in for social that records what it receives and follows nobody.
    static func withStack(_ body: (TestStack, Recorder, TestUser) async throws -> Void) async throws {
        let recorder = Recorder()
        let social = LateServiceURL()
        try await withTestStack(services: [
            .social: { settings in
                let router = Router()
                router.get(RouterPath(SocialPaths.internalUsers + "/:id/following-ids")) { request, _ -> Response in
                    recorder.received.withLock {
                        $0.append(
                            Received(
                                traceparent: request.headers[HTTPField.Name("traceparent")!],
                                tracestate: request.headers[HTTPField.Name("tracestate")!],
                                requestID: request.headers[HTTPField.Name("X-Request-Id")!]))
                    }
                    return Response(
                        status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(string: #"{"ids":[]}"#)))
                }
                let onListening = settings.onListening
                return Application(
                    router: router, configuration: .init(address: .hostname(settings.host, port: settings.port)),
                    onServerRunning: { await onListening?($0.localAddress?.port ?? 0) })
            },
            .habits: TracingTests.habits(askingSocialAt: social),
        ]) { stack in
            social.url = stack.serviceURLs[.social] ?? ""
            try await body(stack, recorder, try await stack.register("ann"))
        }
    }

    @Test func aClientsTraceReachesTheInternalCallWithItsStateAndRequestID() async throws {
        try await Self.withStack { stack, recorder, ann in
            let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
            let response = try await stack.gateway.get(
                HabitsPaths.following, token: ann.accessToken,
                headers: [
                    ("traceparent", "00-\(traceID)-00f067aa0ba902b7-01"), ("tracestate", "vendor=1"),
                    ("X-Request-Id", "trace-propagation-1"),
                ])
            #expect(response.status == 200, "\(response.text)")
            let received = try #require(recorder.all.last)
            let parent = try #require(TraceParent(received.traceparent))
            #expect(parent.traceIDHex == traceID)
            #expect(parent.spanIDHex != "00f067aa0ba902b7")
            #expect(received.tracestate == "vendor=1")
            #expect(received.requestID == "trace-propagation-1")
        }
    }

    @Test func anAbsentOrInvalidTraceparentStartsANewTraceAndDropsTheState() async throws {
        try await Self.withStack { stack, recorder, ann in
            let invalid = "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01"
            for headers in [[], [("traceparent", invalid), ("tracestate", "vendor=1")]] {
                let response = try await stack.gateway.get(HabitsPaths.following, token: ann.accessToken, headers: headers)
                #expect(response.status == 200, "\(response.text)")
            }
            let received = recorder.all
            #expect(received.count == 2)
            let traces = received.compactMap { TraceParent($0.traceparent)?.traceIDHex }
            #expect(traces.count == 2)
            #expect(Set(traces).count == 2)
            #expect(!traces.contains("4bf92f3577b34da6a3ce929d0e0e4736"))
            #expect(received.allSatisfy { $0.tracestate == nil })
        }
    }
}
