import PlatformKit
import Tracing

/// The tracer while tracing is off: records nothing, but reads `traceparent`, gives each span a new id and
/// writes `traceparent` (and `tracestate`) on calls out, so one trace id still follows a request through the
/// services and their log lines.
struct PropagatingTracer: Tracer {
    func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> PropagatedSpan {
        Self.span(in: context())
    }

    /// A span continuing the trace `context` carries (a new trace when it carries none). Also called by
    /// ``TracingResponder`` directly, without the `Tracer` protocol's generic calls.
    static func span(in context: InstrumentationContext) -> PropagatedSpan {
        var context = context
        var generator = SharedTraceIDGenerator()
        if var trace = context.propagatedTrace {
            trace.parent = trace.parent.child(spanID: TraceParent.spanID(using: &generator))
            context.propagatedTrace = trace
        } else {
            context.propagatedTrace = PropagatedTrace(parent: TraceParent.root(using: &generator), state: nil)
        }
        return PropagatedSpan(context: context)
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let parent = TraceParent(extractor.extract(key: PlatformHeaders.traceParent, from: carrier)) else {
            return
        }
        context.propagatedTrace = PropagatedTrace(
            parent: parent, state: extractor.extract(key: PlatformHeaders.traceState, from: carrier))
    }

    func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let trace = context.propagatedTrace else { return }
        injector.inject(trace.parent.header, forKey: PlatformHeaders.traceParent, into: &carrier)
        if let state = trace.state {
            injector.inject(state, forKey: PlatformHeaders.traceState, into: &carrier)
        }
    }
}

/// A span that only has ids.
struct PropagatedSpan: Tracing.Span {
    let context: InstrumentationContext
    var isRecording: Bool { false }
    var operationName: String {
        get { "" }
        nonmutating set {}
    }
    var attributes: SpanAttributes {
        get { [:] }
        nonmutating set {}
    }
    func setStatus(_ status: SpanStatus) {}
    func addEvent(_ event: SpanEvent) {}
    func addLink(_ link: SpanLink) {}
    func recordError<Instant: TracerInstant>(
        _ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant
    ) {}
    func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {}
}

/// The trace a propagate-only span belongs to: its own ids and the caller's trace state. One context value
/// rather than two: each read or write of the context is a generic call with a dynamic cast.
struct PropagatedTrace: Sendable {
    var parent: TraceParent
    var state: String?
}

extension InstrumentationContext {
    /// The propagate-only span's trace (``PropagatingTracer``).
    var propagatedTrace: PropagatedTrace? {
        get { self[PropagatedTraceKey.self] }
        set { self[PropagatedTraceKey.self] = newValue }
    }

    /// The tracer of the service handling the current request: its internal calls record client spans with it.
    var serviceTracer: (any Tracer)? {
        get { self[ServiceTracerKey.self] }
        set { self[ServiceTracerKey.self] = newValue }
    }
}

private enum PropagatedTraceKey: InstrumentationContextKey {
    typealias Value = PropagatedTrace
}

private enum ServiceTracerKey: InstrumentationContextKey {
    typealias Value = any Tracer
}
