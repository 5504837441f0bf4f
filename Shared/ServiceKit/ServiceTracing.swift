import HTTPTypes
import Hummingbird
import PlatformKit
import Tracing

/// Wraps a service's router so each request is a server span: a child of the caller's `traceparent` (the
/// gateway's span, or another service's client span), current for everything the request does, internal calls
/// and log lines included. Outside the router, so the span covers its middleware too.
///
/// Unlike Hummingbird's `TracingMiddleware` it takes its tracer as a value (from ``ServiceSettings/tracer``),
/// so several services in one test process can each export under their own name; the span ends when the
/// response head is ready (a live event stream would otherwise keep it open for hours).
struct TracingResponder<Wrapped: HTTPResponder>: HTTPResponder where Wrapped.Context: RequestContext {
    typealias Context = Wrapped.Context
    let wrapped: Wrapped
    let tracer: any Tracer
    /// Tracing is off (``PropagatingTracer``): the span is made directly, without the `Tracer` protocol's generic
    /// calls, a second parse of `traceparent` and a context write per header (this part of a request behind the gateway
    /// fell from 3.2 to 2.0 µs in profiles).
    let propagatesOnly: Bool

    init(wrapped: Wrapped, tracer: any Tracer) {
        self.wrapped = wrapped
        self.tracer = tracer
        self.propagatesOnly = tracer is PropagatingTracer
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        var parent = InstrumentationContext.topLevel
        parent.serviceTracer = tracer
        let span: any Tracing.Span
        if propagatesOnly {
            if let incoming = TraceParent(request.headers.onlyValue(traceParentField)) {
                parent.propagatedTrace = PropagatedTrace(parent: incoming, state: request.headers[traceStateField])
            }
            span = PropagatingTracer.span(in: parent)
        } else {
            // Only a valid traceparent reaches the tracer: swift-otel logs a warning for each one it cannot read.
            if TraceParent(request.headers.onlyValue(traceParentField)) != nil {
                tracer.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
            }
            span = tracer.startSpan(request.method.rawValue, context: parent, ofKind: .server)
        }
        if span.isRecording {
            span.updateAttributes { attributes in
                attributes["http.request.method"] = request.method.rawValue
                attributes["url.path"] = request.uri.path
            }
        }
        defer { span.end() }
        do {
            let response = try await InstrumentationContext.$current.withValue(span.context) {
                try await wrapped.respond(to: request, context: context)
            }
            finish(span, status: Int(response.status.code), context: context)
            return response
        } catch {
            let status = (error as? any HTTPResponseError).map { Int($0.status.code) } ?? 500
            span.recordError(error)
            finish(span, status: status, context: context)
            throw error
        }
    }

    private func finish(_ span: any Tracing.Span, status: Int, context: Context) {
        guard span.isRecording else { return }
        // Named by route (`GET /v1/habits/{id}`), known only once the router has matched.
        if let route = context.endpointPath { span.operationName = "\(span.operationName) \(route)" }
        span.updateAttributes { attributes in
            attributes["http.route"] = context.endpointPath
            attributes["http.response.status_code"] = status
        }
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Reads trace context headers from a Hummingbird request for a tracer.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}

let traceParentField = HTTPField.Name(PlatformHeaders.traceParent)!
let traceStateField = HTTPField.Name(PlatformHeaders.traceState)!

extension HTTPFields {
    /// The value of the one field named `name`; `nil` when there is none or more than one. Unlike the subscript,
    /// which joins every value into a new string, it allocates nothing.
    public func onlyValue(_ name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            guard found == nil else { return nil }
            found = field.value
        }
        return found
    }
}
