import Hummingbird
import Prometheus
import Synchronization

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
        // A client may send any token as its method: only the standard ones get a series of their own.
        let method = Self.standardMethods.contains(method) ? method : "other"
        let series = self.series(method: method, route: route, status: status)
        series.requests.increment()
        series.duration.record(duration)
    }

    /// The counter and histogram of one method, route and status, made once: building them looks the labels up
    /// in the registry under its lock and allocates, which profiling showed on every request.
    private func series(method: String, route: String, status: Int) -> Series {
        let key = SeriesKey(method: method, route: route, status: status)
        if let series = cache.withLock({ $0[key] }) { return series }
        let series = Series(
            requests: registry.makeCounter(
                descriptor: Self.requests, labels: [("method", method), ("route", route), ("status", String(status))]),
            duration: registry.makeDurationHistogram(
                descriptor: Self.duration, labels: [("method", method), ("route", route)], buckets: Self.buckets))
        cache.withLock { $0[key] = series }
        return series
    }

    private static let standardMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]

    private struct SeriesKey: Hashable {
        let method: String
        let route: String
        let status: Int
    }

    private struct Series: Sendable {
        let requests: Counter
        let duration: DurationHistogram
    }

    private let cache = Mutex<[SeriesKey: Series]>([:])

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
