import GatewayService
import PlatformKit

/// Runs `body` with a raw connection to a test stack whose gateway routes `prefix` to `upstream` in `service`'s place,
/// `publicPaths` needing no access token; then stops `upstream`. For the gateway's behaviour towards a service that
/// misbehaves on purpose.
public func withStandInRoute(
    _ prefix: String, as service: ServiceName, to upstream: MisbehavingUpstream, publicPaths: Set<String>,
    configure: @escaping @Sendable (inout GatewayConfiguration) -> Void = { _ in },
    _ body: @Sendable (RawHTTPConnection) async throws -> Void
) async throws {
    let port = upstream.port
    try await withTestStack(
        routes: RouteTable.entries + [RouteTable.Entry(prefix, service)],
        configureGateway: {
            $0.upstreams[service] = .init(host: "127.0.0.1", port: port)
            $0.publicPaths.formUnion(publicPaths)
            configure(&$0)
        }
    ) { stack in
        let connection = try await stack.rawConnection()
        try await body(connection)
        await connection.close()
    }
    await upstream.stop()
}
