import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PlatformKit
import Prometheus

/// What every connection of the gateway shares: routing, token checks, limits, metrics.
final class GatewayCore: Sendable {
    let configuration: GatewayConfiguration
    let router: GatewayRouter
    let verifier: AccessTokenVerifier
    /// Identity's ended sessions into ``verifier``; `nil` without a service credential.
    let revocationFeed: SessionRevocationFeed?
    let rateLimiter: RateLimiter
    let metrics: GatewayMetrics
    let openAPI: OpenAPIMerger
    let logger: Logger

    init(configuration: GatewayConfiguration, httpClient: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.router = GatewayRouter(routes: configuration.routes, publicPaths: configuration.publicPaths)
        let identity = configuration.upstreams[.identity]?.url ?? "http://127.0.0.1:\(ServiceName.identity.defaultPort)"
        let verifier = AccessTokenVerifier.remote(
            jwksURL: identity + IdentityPaths.jwks, httpClient: httpClient, clock: configuration.clock)
        self.verifier = verifier
        self.revocationFeed = configuration.internalToken.map { token in
            SessionRevocationFeed(
                identityURL: identity, token: token, verifier: verifier, httpClient: httpClient, logger: logger)
        }
        self.rateLimiter = RateLimiter(
            capacity: configuration.requestsPerMinute, period: 60, clock: configuration.clock)
        self.metrics = GatewayMetrics()
        self.openAPI = OpenAPIMerger(
            upstreams: configuration.upstreams, httpClient: httpClient, clock: configuration.clock)
        self.logger = logger
    }
}

/// The gateway's Prometheus metrics, created up front so the request path only increments.
final class GatewayMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let responses: [String: [Counter]]
    private let durations: [String: DurationHistogram]

    static let classes = ["1xx", "2xx", "3xx", "4xx", "5xx"]

    init() {
        let registry = PrometheusCollectorRegistry()
        var responses: [String: [Counter]] = [:]
        var durations: [String: DurationHistogram] = [:]
        let counter = MetricNameDescriptor(
            metricName: "gateway_responses", unitName: "total", helpText: "Responses by service and status class.")
        let histogram = MetricNameDescriptor(
            metricName: "gateway_upstream_duration", unitName: "seconds",
            helpText: "Time from request head to response end, by service.")
        let buckets: [Duration] = [
            .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50),
            .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5),
        ]
        for target in ServiceName.allCases.map(\.rawValue) + ["gateway"] {
            responses[target] = Self.classes.map {
                registry.makeCounter(descriptor: counter, labels: [("service", target), ("code", $0)])
            }
            durations[target] = registry.makeDurationHistogram(
                descriptor: histogram, labels: [("service", target)], buckets: buckets)
        }
        self.registry = registry
        self.responses = responses
        self.durations = durations
    }

    func record(target: String, status: Int, since start: NIODeadline) {
        let index = min(max(status / 100 - 1, 0), 4)
        responses[target]?[index].increment()
        durations[target]?.recordNanoseconds((NIODeadline.now() - start).nanoseconds)
    }

    func exposition() -> ByteBuffer {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return ByteBuffer(bytes: bytes)
    }
}
