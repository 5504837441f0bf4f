import Configuration
import Foundation
import Logging
import PlatformKit
import Tracing

/// Whether a process runs for development (generated secrets allowed) or production (every secret given).
public enum DeploymentEnvironment: String, Sendable {
    case development, production
}

/// The settings every service shares, read from the environment with working local defaults.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `ENVIRONMENT` | `development` or `production` | development |
/// | `HOST`, `PORT` | where to listen | 127.0.0.1, the service's port |
/// | `DATA_DIR` | folder for the service's SQLite file | `./data` |
/// | `DATABASE_PATH` | the SQLite file itself | `DATA_DIR/<service>.sqlite` |
/// | `DATABASE_URL` | a PostgreSQL database (`postgres://user:pass@host:5432/db?sslmode=require`) instead of the SQLite file; overrides `DATABASE_PATH` | unset: SQLite |
/// | `INTERNAL_TOKEN` | the service credential for `/internal/...` | generated in development |
/// | `METRICS_TOKEN` | the scrape credential, the only one `/metrics` answers; must differ from `INTERNAL_TOKEN` | unset: `/metrics` closed (the local stack generates one) |
/// | `IDENTITY_URL` | the identity service, for its JWKS and lookups | http://127.0.0.1:8081 |
/// | `LOG_LEVEL` | swift-log level | info |
/// | `OUTBOX_LIMIT` | most notices and events a service keeps for the notifications service; beyond it new ones are refused with a logged error | 100000 |
///
/// Tracing (`OTEL_*`) is set up process-wide by ``Observability``; see ``tracer``.
public struct ServiceSettings: Sendable {
    public var service: ServiceName
    public var environment: DeploymentEnvironment
    public var host: String
    public var port: Int
    public var dataDirectory: String
    public var database: DatabaseLocation
    public var internalToken: String
    /// The scrape credential (`METRICS_TOKEN`): the only caller `/metrics` answers; `nil` closes it.
    public var metricsToken: String?
    /// The identity service (`IDENTITY_URL`).
    public var identityURL: ServiceAddress
    public var logLevel: Logger.Level
    public var clock: WallClock
    /// Records the service's spans; `nil` uses the process's (``Observability/tracer``). A value rather than
    /// only the process-global tracer, because tracing is bootstrapped once per process while tests and the
    /// local stack run several services in one.
    public var tracer: (any Tracer)?
    /// The most entries the service's outbox holds (`OUTBOX_LIMIT`); beyond it new notices are refused and logged.
    public var outboxLimit: Int
    /// Called with the bound port once the server listens (the local stack and tests use it).
    public var onListening: (@Sendable (Int) async -> Void)?

    /// Settings with explicit values, as tests and the local stack build them.
    public init(
        service: ServiceName, environment: DeploymentEnvironment = .development, host: String = "127.0.0.1",
        port: Int? = nil, dataDirectory: String = "data", database: DatabaseLocation? = nil, internalToken: String,
        metricsToken: String? = nil,
        identityURL: ServiceAddress = .local(.identity), logLevel: Logger.Level = .info,
        clock: WallClock = .system, tracer: (any Tracer)? = nil, outboxLimit: Int = 100_000,
        onListening: (@Sendable (Int) async -> Void)? = nil
    ) {
        self.service = service
        self.environment = environment
        self.host = host
        self.port = port ?? service.defaultPort
        self.dataDirectory = dataDirectory
        self.database = database ?? .file("\(dataDirectory)/\(service.rawValue).sqlite")
        self.internalToken = internalToken
        self.metricsToken = metricsToken
        self.identityURL = identityURL
        self.logLevel = logLevel
        self.clock = clock
        self.tracer = tracer
        self.outboxLimit = outboxLimit
        self.onListening = onListening
    }

    /// Reads the settings from the environment (see the table above).
    public init(service: ServiceName, reader: ConfigReader) throws {
        let environment = DeploymentEnvironment(rawValue: reader.string(forKey: "environment", default: "development"))
        guard let environment else { throw ConfigurationError.invalid("ENVIRONMENT must be development or production") }
        let dataDirectory = reader.string(forKey: "data.dir", default: "data")
        let secrets = DevelopmentSecrets(directory: dataDirectory, environment: environment)
        let internalToken =
            try reader.string(forKey: "internal.token", isSecret: true)
            ?? secrets.value(named: "internal-token")
        if environment == .production, internalToken.count < 32 || internalToken.contains("development") {
            throw ConfigurationError.invalid(
                "INTERNAL_TOKEN must be a random secret of at least 32 characters in production")
        }
        // Optional: without it `/metrics` is closed (the local stack generates one for development).
        let metricsToken = reader.string(forKey: "metrics.token", isSecret: true)
        let outboxLimit = reader.int(forKey: "outbox.limit", default: 100_000)
        guard (1...100_000_000).contains(outboxLimit) else {
            throw ConfigurationError.invalid("OUTBOX_LIMIT must be between 1 and 100000000")
        }
        if let metricsToken {
            guard metricsToken != internalToken else {
                throw ConfigurationError.invalid(
                    "METRICS_TOKEN must differ from INTERNAL_TOKEN: a scraper's credential must not open internal routes"
                )
            }
            if environment == .production, metricsToken.count < 32 || metricsToken.contains("development") {
                throw ConfigurationError.invalid(
                    "METRICS_TOKEN must be a random secret of at least 32 characters in production")
            }
        }
        let identityURL = reader.string(
            forKey: "identity.url", default: "http://127.0.0.1:\(ServiceName.identity.defaultPort)")
        // Checked here: a malformed one would only show as a failing token check on the first request.
        guard let url = URL(string: identityURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host?.isEmpty == false
        else {
            throw ConfigurationError.invalid("IDENTITY_URL must be http://host:port, not '\(identityURL)'")
        }
        self.init(
            service: service,
            environment: environment,
            host: reader.string(forKey: "host", default: "127.0.0.1"),
            port: try NumberSetting.port(reader.string(forKey: "port"), variable: "PORT", default: service.defaultPort),
            dataDirectory: dataDirectory,
            // Empty counts as unset: compose passes `${IDENTITY_DATABASE_URL:-}` through.
            database: try reader.string(forKey: "database.url").flatMap { $0.isEmpty ? nil : $0 }
                .map { .postgres(try PostgresURL($0)) }
                ?? reader.string(forKey: "database.path").map { .file($0) },
            internalToken: internalToken,
            metricsToken: metricsToken,
            identityURL: ServiceAddress(identityURL),
            logLevel: Logger.Level(rawValue: reader.string(forKey: "log.level", default: "info")) ?? .info,
            outboxLimit: outboxLimit
        )
    }

    /// A reader over the process environment.
    public static func environmentReader() -> ConfigReader {
        ConfigReader(provider: EnvironmentVariablesProvider())
    }
}

/// A configuration value that is missing or malformed; the process refuses to start.
public enum ConfigurationError: Error, CustomStringConvertible {
    case invalid(String)
    case missingSecret(String)

    public var description: String {
        switch self {
        case .invalid(let message): "invalid configuration: \(message)"
        case .missingSecret(let name): "\(name) must be set in production"
        }
    }
}

/// Secrets for development: generated once, kept in the data folder, and announced in the log.
/// In production they are never generated: a missing secret stops the process.
public struct DevelopmentSecrets: Sendable {
    let directory: String
    let environment: DeploymentEnvironment

    public init(directory: String, environment: DeploymentEnvironment) {
        self.directory = directory
        self.environment = environment
    }

    /// The secret `name`: read from `<data>/development-secrets/<name>`, or generated there first.
    public func value(named name: String, generate: () -> String = { randomToken() }) throws -> String {
        guard environment == .development else {
            throw ConfigurationError.missingSecret(name.uppercased().replacingOccurrences(of: "-", with: "_"))
        }
        let folder = URL(fileURLWithPath: directory).appendingPathComponent("development-secrets")
        let file = folder.appendingPathComponent(name)
        if let existing = try? String(contentsOf: file, encoding: .utf8), !existing.isEmpty { return existing }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let value = generate()
        try value.write(to: file, atomically: true, encoding: .utf8)
        Logger(label: "platform.secrets").warning(
            "generated a development secret; set it explicitly in production",
            metadata: ["name": "\(name)", "path": "\(file.path)"])
        return value
    }
}

/// 32 random bytes as base64url text.
public func randomToken(byteCount: Int = 32) -> String {
    var generator = SystemRandomNumberGenerator()
    let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    return Data(bytes).base64URLEncoded
}
