import Foundation
import HTTPTypes
import Hummingbird
import ServiceKit
import ServiceLifecycle

/// A stand-in upstream for gateway tests: it answers under any prefix with what it received, so a test
/// can see exactly what the gateway forwarded.
public enum EchoService {
    /// What the echo saw of a request.
    public struct Echo: Codable, Sendable {
        public var method: String
        public var path: String
        public var requestID: String?
        public var forwardedFor: String?
        public var internalToken: String?
        public var authorization: String?
        public var bodyBytes: Int
    }

    /// An application answering every path under `prefix` with an ``Echo``.
    public static func build(prefix: String) -> TestStack.ServiceBuilder {
        { settings in
            let router = Router()
            let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
                let body = try await request.body.collect(upTo: 64 << 20)
                let echo = Echo(
                    method: request.method.rawValue, path: request.uri.path,
                    requestID: request.headers[HTTPField.Name("X-Request-Id")!],
                    forwardedFor: request.headers[HTTPField.Name("X-Forwarded-For")!],
                    internalToken: request.headers[HTTPField.Name("X-Internal-Token")!],
                    authorization: request.headers[.authorization], bodyBytes: body.readableBytes)
                return try JSONEncoder().encodeResponse(echo)
            }
            router.on(RouterPath(prefix + "/**"), method: .get, use: handler)
            router.on(RouterPath(prefix + "/**"), method: .post, use: handler)
            router.on(RouterPath(prefix + "/**"), method: .put, use: handler)
            let onListening = settings.onListening
            return Application(
                router: router, configuration: .init(address: .hostname(settings.host, port: settings.port)),
                onServerRunning: { await onListening?($0.localAddress?.port ?? 0) })
        }
    }
}
