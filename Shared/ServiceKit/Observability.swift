import Foundation
import Logging
import OTel
import PlatformKit
import ServiceLifecycle
import Synchronization
import Tracing

/// Logs and traces for a process. `main` calls ``bootstrap(service:environment:)`` once; the chassis and the
/// gateway pick up what it set up (the tracer, and the exporter's background service to run).
///
/// Tracing is exported (OTLP over HTTP) only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set; swift-otel also reads
/// `OTEL_EXPORTER_OTLP_PROTOCOL` (`http/protobuf` by default, or `http/json`), `OTEL_SERVICE_NAME` and the other
/// standard `OTEL_*` variables. Without it nothing is exported and no exporter runs, but trace contexts are still
/// carried (``tracer`` then only propagates), so log lines inside a request carry `trace_id` and `span_id`.
public enum Observability {
    private static let state = Mutex<(tracer: (any Tracer)?, exporter: (any Service)?)>((nil, nil))

    /// Bootstraps logging (``LogFormat``, with trace ids on lines inside a request) and, when
    /// `OTEL_EXPORTER_OTLP_ENDPOINT` is set, the process-global tracer exporting as `service`.
    public static func bootstrap(
        service: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws {
        try LogFormat.bootstrap(environment: environment)
        guard let endpoint = environment["OTEL_EXPORTER_OTLP_ENDPOINT"], !endpoint.isEmpty, exportingTracer == nil
        else { return }
        let tracing = try makeTracing(service: service)
        // Global too, for any library that traces through swift-distributed-tracing's `InstrumentationSystem`.
        InstrumentationSystem.bootstrap(tracing.tracer)
        state.withLock { $0 = (tracing.tracer, tracing.exporter) }
    }

    /// The tracer exporting spans, when ``bootstrap(service:environment:)`` turned tracing on; else `nil`.
    public static var exportingTracer: (any Tracer)? { state.withLock { $0.tracer } }

    /// The process's tracer: the exporting one, else one that records nothing and only carries trace contexts.
    public static var tracer: any Tracer { exportingTracer ?? PropagatingTracer() }

    /// The exporter's background service, handed out once: whoever gets it runs it in its service group
    /// (``ServiceApplication/application(router:settings:services:verifier:)`` does, the gateway's `main` too).
    public static func takeExporter() -> (any Service)? {
        state.withLock { state in
            defer { state.exporter = nil }
            return state.exporter
        }
    }

    /// A tracer exporting over OTLP/HTTP as `service`, and the background service that exports (run it in a
    /// service group). Standard `OTEL_*` variables override `configure`'s values.
    public static func makeTracing(
        service: String, configure: (inout OTel.Configuration) -> Void = { _ in }
    ) throws -> (tracer: any Tracer, exporter: any Service) {
        var configuration = OTel.Configuration.default
        configuration.serviceName = service
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        // swift-otel's own warnings (an unreachable collector) go through our log format, not its console logger.
        configuration.diagnosticLogger = .custom(Logger(label: "platform.otel"))
        configure(&configuration)
        let backend = try OTel.makeTracingBackend(configuration: configuration)
        return (backend.factory, backend.service)
    }

    /// Adds `trace_id` and `span_id` of the current span to log lines (swift-otel's spans and the
    /// propagate-only ones alike); nothing outside a span.
    public static let logMetadataProvider = Logger.MetadataProvider {
        var metadata = otelMetadata.get()
        if let parent = InstrumentationContext.current?.propagatedTrace?.parent {
            metadata["trace_id"] = .string(parent.traceIDHex)
            metadata["span_id"] = .string(parent.spanIDHex)
        }
        return metadata
    }

    private static let otelMetadata = OTel.makeLoggingMetadataProvider()
}
