import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PlatformKit
import ServiceKit
import Synchronization
import Testing
import Tracing

/// Trace context in the chassis with tracing off (this test process bootstraps no exporter): requests continue
/// the caller's trace, internal calls carry it and the request id on, and log lines show the ids.
@Suite struct ServiceTracingTests {
    static let traceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpan = "00f067aa0ba902b7"
    static let traceParent = "00-\(traceID)-\(callerSpan)-01"

    /// What the called service received.
    struct Received: Codable {
        var traceparent: String?
        var tracestate: String?
        var requestID: String?
    }

    @Test func anInternalCallContinuesTheRequestsTraceAndCarriesItsRequestID() async throws {
        // given a service that answers with the trace headers and request id it received
        let calleeRouter = Router()
        calleeRouter.get("/internal/echo") { request, _ in
            try JSONEncoder().encodeResponse(
                Received(
                    traceparent: request.headers[HTTPField.Name("traceparent")!],
                    tracestate: request.headers[HTTPField.Name("tracestate")!],
                    requestID: request.headers[HTTPField.Name("X-Request-Id")!]))
        }
        let callee = Application(router: calleeRouter, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await callee.test(.live) { calleeClient in
            let port = try #require(calleeClient.port)
            // and a platform service whose route calls it without naming a request id
            let router = ServiceApplication.router(metrics: ServiceMetrics(), openAPIDocument: Data(), database: nil)
            router.get("/call") { _, _ in
                // A generous deadline: this is about trace context, and the whole suite shares two cores.
                let client = InternalClient(
                    service: .social, baseURL: "http://127.0.0.1:\(port)", token: "t", timeout: .seconds(30))
                return try JSONEncoder().encodeResponse(try await client.get("/internal/echo", as: Received.self))
            }
            let app = ServiceApplication.application(
                router: router, settings: ServiceSettings(service: .social, port: 0, internalToken: "t"))
            try await app.test(.live) { client in
                // when a request with a trace context and a request id calls it
                try await client.execute(
                    uri: "/call", method: .get,
                    headers: [
                        HTTPField.Name("traceparent")!: Self.traceParent, HTTPField.Name("tracestate")!: "vendor=1",
                        HTTPField.Name("X-Request-Id")!: "req-trace-1",
                    ]
                ) { response in
                    #expect(response.status == .ok)
                    let received = try JSONDecoder().decode(Received.self, from: Data(response.body.readableBytesView))
                    // then the call continued the trace from a span of its own, and carried state and request id
                    let forwarded = try #require(TraceParent(received.traceparent))
                    #expect(forwarded.traceIDHex == Self.traceID)
                    #expect(forwarded.spanIDHex != Self.callerSpan)
                    #expect(received.tracestate == "vendor=1")
                    #expect(received.requestID == "req-trace-1")
                }
                // and without a trace context a request starts a trace of its own, carried on just the same
                try await client.execute(uri: "/call", method: .get) { response in
                    let received = try JSONDecoder().decode(Received.self, from: Data(response.body.readableBytesView))
                    let forwarded = try #require(TraceParent(received.traceparent))
                    #expect(forwarded.traceIDHex != Self.traceID)
                    #expect(received.tracestate == nil)
                    #expect(received.requestID?.isEmpty == false)
                }
                // and two trace contexts are none: the request starts a trace of its own, without the state
                var twoParents = HTTPFields()
                twoParents.append(HTTPField(name: HTTPField.Name("traceparent")!, value: Self.traceParent))
                twoParents.append(HTTPField(name: HTTPField.Name("traceparent")!, value: Self.traceParent))
                twoParents.append(HTTPField(name: HTTPField.Name("tracestate")!, value: "vendor=1"))
                try await client.execute(uri: "/call", method: .get, headers: twoParents) { response in
                    let received = try JSONDecoder().decode(Received.self, from: Data(response.body.readableBytesView))
                    let forwarded = try #require(TraceParent(received.traceparent))
                    #expect(forwarded.traceIDHex != Self.traceID)
                    #expect(received.tracestate == nil)
                }
            }
        }
    }

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        func append(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    @Test func onlyValueIsTheValueOfExactlyOneField() {
        let name = HTTPField.Name("traceparent")!
        var fields: HTTPFields = [HTTPField.Name("host")!: "example.com"]
        #expect(fields.onlyValue(name) == nil)
        fields.append(HTTPField(name: HTTPField.Name("TraceParent")!, value: "one"))
        #expect(fields.onlyValue(name) == "one")
        fields.append(HTTPField(name: name, value: "two"))
        #expect(fields.onlyValue(name) == nil)
    }

    struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? { carrier[key] }
    }

    @Test func logLinesInsideASpanCarryItsTraceAndSpanIDs() throws {
        // given a JSON logger with the platform's metadata provider, and a span continuing a caller's trace
        let lines = Lines()
        let logger = Logger(label: "platform.test") {
            PlatformLogHandler(
                label: $0, format: .json, metadataProvider: Observability.logMetadataProvider, write: lines.append)
        }
        let tracer = Observability.tracer
        var parent = InstrumentationContext.topLevel
        tracer.extract(["traceparent": Self.traceParent], into: &parent, using: DictionaryExtractor())
        let span = tracer.startSpan("test", context: parent)
        // when it logs inside the span and outside
        let provided = InstrumentationContext.$current.withValue(span.context) {
            logger.info("inside")
            return Observability.logMetadataProvider.get()
        }
        logger.info("outside")
        // then the line inside has the trace id and the span's own id, the line outside neither
        let objects = try lines.all.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(objects.first?["trace_id"] as? String == Self.traceID)
        let spanID = try #require(objects.first?["span_id"] as? String)
        #expect(spanID.count == 16 && spanID != Self.callerSpan)
        #expect(objects.last?["trace_id"] == nil)
        // and the plain handler, which prints whatever the provider gives, gets the same ids
        #expect(provided["trace_id"] == .string(Self.traceID))
        #expect(provided["span_id"] == .string(spanID))
    }
}
