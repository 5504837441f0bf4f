import Foundation
import GRDB
import Hummingbird
import Logging
import PlatformKit
import ServiceLifecycle
import Tracing

/// The chassis every service is built on: a router with the platform's middleware and endpoints, and an
/// application that listens where the settings say.
public enum ServiceApplication {
    /// A router with request ids, metrics and problem responses, plus `/health/live`, `/health/ready`,
    /// `/metrics` and `/openapi.json`.
    ///
    /// - Parameters:
    ///   - openAPIDocument: this service's OpenAPI document, served as is.
    ///   - database: checked by the readiness probe.
    ///   - metricsToken: the scrape credential `/metrics` answers (``MetricsCredential``); `nil` closes it.
    public static func router(
        metrics: ServiceMetrics, openAPIDocument: Data, database: (any DatabaseReader)?, metricsToken: String? = nil
    ) -> Router<ServiceRequestContext> {
        router(
            metrics: metrics, openAPIDocument: openAPIDocument, probe: database.map { SQLiteProbe(reader: $0) },
            metricsToken: metricsToken)
    }

    /// The same router, its readiness asking `probe` (a SQLite or PostgreSQL database).
    public static func router(
        metrics: ServiceMetrics, openAPIDocument: Data, probe: (any DatabaseProbe)?, metricsToken: String? = nil
    ) -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: ProblemMiddleware())
        router.get("/health/live") { _, _ in HealthStatus(status: "ok") }
        router.get("/health/ready") { _, _ -> Response in
            do {
                try await probe?.ping()
                return try PlatformJSON.encoder.encodeResponse(HealthStatus(status: "ready"))
            } catch {
                return Problem(
                    status: 503, code: "not_ready", title: "Not ready", detail: "The database is not reachable."
                )
                .response()
            }
        }
        router.get("/metrics") { request, _ in
            // Anyone without the scrape credential gets what an unknown path gets.
            guard MetricsCredential.allows(authorization: request.headers[.authorization], token: metricsToken) else {
                throw HTTPError(.notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        router.get("/openapi.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(bytes: openAPIDocument)))
        }
        return router
    }

    /// The application for `router`, listening at the settings' host and port; with a `verifier`, it also
    /// keeps that verifier's ended sessions up to date from identity (``SessionRevocationService``).
    /// Every request is a span of the settings' tracer (``TracingResponder``); the process's span exporter, if
    /// ``Observability`` started one and nothing runs it yet, runs with the application.
    public static func application(
        router: Router<ServiceRequestContext>, settings: ServiceSettings, services: [any Service] = [],
        verifier: AccessTokenVerifier? = nil
    ) -> some ApplicationProtocol {
        var services = services
        if let verifier { services.append(SessionRevocationService(verifier: verifier, settings: settings)) }
        if settings.tracer == nil, let exporter = Observability.takeExporter() { services.append(exporter) }
        var logger = Logger(label: "platform.\(settings.service.rawValue)")
        logger.logLevel = settings.logLevel
        let onListening = settings.onListening
        return Application(
            responder: TracingResponder(
                wrapped: router.buildResponder(), tracer: settings.tracer ?? Observability.tracer),
            // A deep accept queue: the gateway opens connections in bursts (1,000 live streams reconnecting
            // at once after a deploy), and Hummingbird's default of 256 refuses the rest.
            configuration: .init(
                address: .hostname(settings.host, port: settings.port), serverName: settings.service.rawValue,
                backlog: 4096),
            services: services,
            onServerRunning: { channel in await onListening?(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Loads a service's bundled OpenAPI document.
    public static func openAPIDocument(in bundle: Bundle) -> Data {
        bundle.url(forResource: "openapi", withExtension: "json").flatMap { try? Data(contentsOf: $0) }
            ?? Data("{}".utf8)
    }
}

struct HealthStatus: ResponseEncodable {
    var status: String
}

/// The routes' JSON answers, written by ``PlatformJSONWriter``: the bytes ``PlatformJSON/encoder`` would write,
/// without building Foundation's intermediate tree first.
public struct PlatformResponseEncoder: ResponseEncoder {
    /// The encoder.
    public init() {}

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response
    {
        Self.response(json: ByteBuffer(bytes: try PlatformJSONWriter.encode(value)))
    }

    /// The 200 answer with `json`, as `encode` writes it (for answers kept already encoded).
    public static func response(json: ByteBuffer) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(json.readableBytes)],
            body: .init(byteBuffer: json))
    }
}

extension JSONEncoder {
    /// Encodes `value` as a 200 JSON response.
    public func encodeResponse(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
