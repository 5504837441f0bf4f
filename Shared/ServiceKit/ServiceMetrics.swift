import Hummingbird
import Prometheus

/// One service's Prometheus registry: request counts and latencies by route, served at `/metrics`.
///
/// Each application owns its registry (rather than the process-wide MetricsSystem) so the local stack,
/// which runs every service in one process, still reports each service's figures separately.
public final class ServiceMetrics: Sendable {
    /// The registry to add service-specific metrics to.
    public let registry = PrometheusCollectorRegistry()

    /// Creates an empty registry.
    public init() {}

    /// The registry in Prometheus text format.
    public func exposition() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    func record(method: String, route: String, status: Int, duration: Duration) {
        let labels = [("method", method), ("route", route), ("status", String(status))]
        registry.makeCounter(descriptor: Self.requests, labels: labels).increment()
        registry.makeDurationHistogram(
            descriptor: Self.duration, labels: [("method", method), ("route", route)], buckets: Self.buckets
        ).record(duration)
    }

    private static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "http_requests", unitName: "total", helpText: "HTTP requests answered, by route and status.")
    }
    private static var duration: MetricNameDescriptor {
        MetricNameDescriptor(
            metricName: "http_request_duration", unitName: "seconds",
            helpText: "Time to answer HTTP requests, by route.")
    }

    private static let buckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]
}

/// Records every request in ``ServiceMetrics`` by its route template (not its raw path, which would
/// make one time series per user id).
public struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    public init(metrics: ServiceMetrics) {
        self.metrics = metrics
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.record(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched",
            status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }
}
