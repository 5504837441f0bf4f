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
        var context = context()
        var generator = SharedTraceIDGenerator()
        context.traceParent =
            context.traceParent.map { $0.child(spanID: TraceParent.spanID(using: &generator)) }
            ?? TraceParent.root(using: &generator)
        return PropagatedSpan(context: context)
    }

    func forceFlush() {}

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        guard let parent = TraceParent(extractor.extract(key: PlatformHeaders.traceParent, from: carrier)) else {
            return
        }
        context.traceParent = parent
        context.traceState = extractor.extract(key: PlatformHeaders.traceState, from: carrier)
    }

    func inject<Carrier, Inject: Injector>(
        _ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        guard let parent = context.traceParent else { return }
        injector.inject(parent.header, forKey: PlatformHeaders.traceParent, into: &carrier)
        if let state = context.traceState {
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

extension InstrumentationContext {
    /// The propagate-only span's ids (``PropagatingTracer``).
    var traceParent: TraceParent? {
        get { self[TraceParentKey.self] }
        set { self[TraceParentKey.self] = newValue }
    }

    var traceState: String? {
        get { self[TraceStateKey.self] }
        set { self[TraceStateKey.self] = newValue }
    }

    /// The tracer of the service handling the current request: its internal calls record client spans with it.
    var serviceTracer: (any Tracer)? {
        get { self[ServiceTracerKey.self] }
        set { self[ServiceTracerKey.self] = newValue }
    }
}

private enum TraceParentKey: InstrumentationContextKey {
    typealias Value = TraceParent
}

private enum TraceStateKey: InstrumentationContextKey {
    typealias Value = String
}

private enum ServiceTracerKey: InstrumentationContextKey {
    typealias Value = any Tracer
}
