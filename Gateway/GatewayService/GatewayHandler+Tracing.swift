import NIOCore
import NIOHTTP1
import PlatformKit
import Tracing

/// W3C trace context at the edge: every forwarded request carries a `traceparent` whose parent is the gateway's
/// own span, continuing a valid one from the client or starting a new trace (an invalid one is ignored).
extension GatewayHandler {
    /// Writes the trace context fields for `head` into the forwarded head; returns the gateway's span when a
    /// tracer records one. Without a tracer only ids are made (no span object, no context, no strings), to keep
    /// forwarding cheap.
    func traceContext(_ head: HTTPRequestHead, service: ServiceName, into buffer: inout ByteBuffer)
        -> (any Tracing.Span)?
    {
        let incoming = TraceParent(head.headers.first(name: PlatformHeaders.traceParent))
        guard let tracer = core.configuration.tracer else {
            let gatewaySpan =
                incoming.map { $0.child(spanID: TraceParent.spanID(using: &traceIDs)) }
                ?? TraceParent.root(using: &traceIDs)
            gatewaySpan.withHeaderBytes { WireFormat.writeField(PlatformHeaders.traceParent, $0, into: &buffer) }
            // The trace state belongs to the client's trace: forwarded only when that trace is continued.
            if incoming != nil, let state = head.headers.first(name: PlatformHeaders.traceState) {
                WireFormat.writeField(PlatformHeaders.traceState, state, into: &buffer)
            }
            return nil
        }
        var parent = InstrumentationContext.topLevel
        // Only a valid traceparent reaches the tracer: swift-otel logs a warning for each one it cannot read.
        if incoming != nil { tracer.extract(head.headers, into: &parent, using: HTTPHeadersExtractor()) }
        let span = tracer.startSpan(
            "\(head.method.rawValue) \(service.rawValue)", context: parent, ofKind: .server)
        span.updateAttributes { attributes in
            attributes["http.request.method"] = head.method.rawValue
            attributes["url.path"] = String(Self.path(of: head.uri))
            attributes["peer.service"] = service.rawValue
        }
        var headers = HTTPHeaders()
        tracer.inject(span.context, into: &headers, using: HTTPHeadersInjector())
        for (name, value) in headers { WireFormat.writeField(name, value, into: &buffer) }
        return span
    }
}

extension GatewayHandler.Exchange {
    /// Ends the gateway's span (if any) with the status the client got; `error` marks it failed.
    func endSpan(status: Int, error: String? = nil) {
        guard let span else { return }
        if status > 0 { span.attributes["http.response.status_code"] = status }
        if let error {
            span.setStatus(SpanStatus(code: .error, message: error))
        } else if status >= 500 {
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }
}
