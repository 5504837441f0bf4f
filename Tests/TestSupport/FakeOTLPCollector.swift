import Foundation
import Hummingbird
import NIOCore
import ServiceLifecycle
import Synchronization

/// A stand-in OpenTelemetry collector on loopback: accepts OTLP/HTTP JSON exports on `POST /v1/traces` and
/// keeps the spans, for tests that check what the platform exported.
public final class FakeOTLPCollector: Sendable {
    /// One exported span, as the tests compare them.
    public struct ExportedSpan: Sendable, Equatable, CustomStringConvertible {
        /// The exporting service (`service.name` of the span's resource).
        public var service: String
        public var name: String
        /// OTLP's span kind: 2 server, 3 client.
        public var kind: Int
        /// Lowercase hex, as in `traceparent`.
        public var traceID: String
        public var spanID: String
        /// `nil` for a trace's first span.
        public var parentSpanID: String?

        public var description: String {
            "\(service) \(name) kind=\(kind) trace=\(traceID) span=\(spanID) parent=\(parentSpanID ?? "-")"
        }
    }

    /// Where to export traces (the full `/v1/traces` URL).
    public let endpoint: String
    private let store: Store
    private let group: ServiceGroup

    final class Store: Sendable {
        let spans = Mutex<[ExportedSpan]>([])
    }

    /// Starts a collector on a free loopback port.
    public static func start() async throws -> FakeOTLPCollector {
        let store = Store()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            let received = try Self.spans(inExport: Data(body.readableBytesView))
            store.spans.withLock { $0 += received }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: .init(label: "fake-otlp")))
        Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next() ?? 0
        return FakeOTLPCollector(store: store, group: group, endpoint: "http://127.0.0.1:\(port)/v1/traces")
    }

    private init(store: Store, group: ServiceGroup, endpoint: String) {
        self.store = store
        self.group = group
        self.endpoint = endpoint
    }

    /// Every span received so far.
    public var received: [ExportedSpan] { store.spans.withLock { $0 } }

    /// The spans received once `done` holds for them, checked as exports arrive until `timeout` (exports are
    /// batched in the background, so they come a little after the requests they describe).
    public func spans(
        within timeout: Duration = .seconds(10), until done: ([ExportedSpan]) -> Bool
    ) async throws -> [ExportedSpan] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let spans = received
            if done(spans) || ContinuousClock.now >= deadline { return spans }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    public func stop() async {
        await group.triggerGracefulShutdown()
    }

    /// The spans of one OTLP JSON `ExportTraceServiceRequest`.
    static func spans(inExport data: Data) throws -> [ExportedSpan] {
        let export = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        var result: [ExportedSpan] = []
        for resourceSpans in export["resourceSpans"] as? [[String: Any]] ?? [] {
            let resource = resourceSpans["resource"] as? [String: Any] ?? [:]
            let attributes = resource["attributes"] as? [[String: Any]] ?? []
            let service =
                attributes.first { $0["key"] as? String == "service.name" }
                .flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String } ?? ""
            for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
                    let kind = (span["kind"] as? Int) ?? Int(span["kind"] as? String ?? "") ?? 0
                    result.append(
                        ExportedSpan(
                            service: service, name: span["name"] as? String ?? "", kind: kind,
                            traceID: hex(span["traceId"]), spanID: hex(span["spanId"]),
                            parentSpanID: (span["parentSpanId"] as? String).flatMap { $0.isEmpty ? nil : hex($0) }))
                }
            }
        }
        return result
    }

    /// OTLP JSON ids: the specification says hex, protobuf's JSON mapping gives base64; both are read.
    static func hex(_ value: Any?) -> String {
        guard let text = value as? String else { return "" }
        if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text) else { return text }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }
}
