import Foundation
import PlatformKit

/// Where the local stack listens and keeps its data, from its own environment variables.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `GATEWAY_PORT` | the gateway's port | 8080 |
/// | `SERVICE_PORT_BASE` | the first service's port; the services take it and the six after it | 8081 |
/// | `DATA_DIR` | the folder for every database, the development secrets and the mail outbox | `./data` |
/// | `DATABASE_URL` | a PostgreSQL server (`postgres://user:pass@host:5432`, no database): every service gets its own database on it | unset: SQLite files in `DATA_DIR` |
/// | `POSTGRES_SERVICES` | with `DATABASE_URL`, the services (comma-separated, e.g. `identity,household,messaging`) that keep their data on it; the others keep SQLite files | every service |
///
/// Everything else (`BCRYPT_COST`, `SMTP_*`, ...) is read by each service as in production.
public struct LocalStackSettings: Sendable, Equatable {
    public var gatewayPort: Int
    public var servicePortBase: Int
    public var dataDirectory: String

    /// The services in port order: the first takes `SERVICE_PORT_BASE`, the next one more, and so on
    /// (with the default base, the ports every service defaults to on its own).
    public static let services: [ServiceName] = [
        .identity, .social, .messaging, .geo, .habits, .household, .notifications,
    ]

    /// Reads the settings; a malformed value is a ``LocalStackError`` naming its variable.
    public init(environment: [String: String]) throws {
        gatewayPort = try Self.port(environment["GATEWAY_PORT"], variable: "GATEWAY_PORT", default: 8080, span: 1)
        servicePortBase = try Self.port(
            environment["SERVICE_PORT_BASE"], variable: "SERVICE_PORT_BASE", default: 8081, span: Self.services.count)
        dataDirectory = environment["DATA_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "data"
        let servicePorts = servicePortBase..<(servicePortBase + Self.services.count)
        if servicePorts.contains(gatewayPort) {
            throw LocalStackError(
                "GATEWAY_PORT \(gatewayPort) is one of the services' ports (\(servicePorts.lowerBound)-\(servicePorts.upperBound - 1)): choose another GATEWAY_PORT or SERVICE_PORT_BASE."
            )
        }
    }

    /// The port `service` listens on.
    public func port(of service: ServiceName) -> Int {
        servicePortBase + (Self.services.firstIndex(of: service) ?? 0)
    }

    /// The loopback URL of `service`.
    public func url(of service: ServiceName) -> String { "http://127.0.0.1:\(port(of: service))" }

    private static func port(_ value: String?, variable: String, default fallback: Int, span: Int) throws -> Int {
        try NumberSetting.port(value, variable: variable, default: fallback, span: span)
    }
}

/// Why the local stack cannot start, in one line that names what to change.
public struct LocalStackError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
