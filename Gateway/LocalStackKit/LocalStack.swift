import Configuration
import Foundation
import GatewayService
import GeoService
import HabitsService
import HouseholdService
import IdentityService
import Logging
import MessagingService
import NotificationsService
import PlatformKit
import ServiceKit
import ServiceLifecycle
import SocialService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The whole platform in one process for local development: every service and the gateway, each on its
/// own loopback port and talking over real HTTP, with their databases under one data folder.
public enum LocalStack {
    /// Checks the settings, the data folder and the ports, then runs until SIGINT/SIGTERM. Returns the
    /// process's exit status; every failure is one line on standard error (no backtrace).
    public static func run(environment: [String: String]) async -> Int32 {
        do {
            // Every service of the local stack exports its spans as `local-stack` (one process, one tracer).
            try Observability.bootstrap(service: "local-stack", environment: environment)
            let settings = try preflight(environment: environment)
            let services = try await build(settings, environment: environment)
            let logger = Logger(label: "platform.local-stack")
            logger.notice(
                "local stack starting",
                metadata: [
                    "gateway": "http://127.0.0.1:\(settings.gatewayPort)", "data": "\(settings.dataDirectory)",
                    "mail": "\(settings.dataDirectory)/mail",
                ])
            try await ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
                .run()
            return 0
        } catch {
            return ExecutableMain.fail(error, name: "local stack", environment: environment)
        }
    }

    /// Reads the settings and checks the data folder and every port before anything starts; each failure is
    /// a ``LocalStackError`` naming the variable to change.
    public static func preflight(environment: [String: String]) throws -> LocalStackSettings {
        let settings = try LocalStackSettings(environment: environment)
        try checkDataFolder(settings.dataDirectory)
        try checkPorts(settings)
        return settings
    }

    /// Every service and the gateway, each reading the environment with its port and the others' URLs set.
    static func build(_ settings: LocalStackSettings, environment: [String: String]) async throws -> [any Service] {
        // One scrape credential for every service and the gateway, generated like the service credential.
        var environment = environment
        if environment["METRICS_TOKEN"] == nil {
            let secrets = DevelopmentSecrets(
                directory: settings.dataDirectory,
                environment: DeploymentEnvironment(rawValue: environment["ENVIRONMENT"] ?? "") ?? .development)
            environment["METRICS_TOKEN"] = try? secrets.value(named: "metrics-token")
        }
        let databases = try await postgresDatabases(environment: environment)
        func reader(port: Int, service: ServiceName? = nil) -> ConfigReader {
            var environment = environment
            environment["PORT"] = String(port)
            environment["DATA_DIR"] = settings.dataDirectory
            environment["DATABASE_URL"] = service.flatMap { databases[$0] }
            for service in LocalStackSettings.services {
                environment["\(service.rawValue.uppercased())_URL"] = settings.url(of: service)
            }
            return ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
        }
        func reader(_ service: ServiceName) -> ConfigReader {
            reader(port: settings.port(of: service), service: service)
        }
        let identity = try IdentityConfiguration(reader: reader(.identity))
        var gateway = try GatewayConfiguration(reader: reader(port: settings.gatewayPort))
        // The service credential the services generated (or were given), for identity's ended-session feed.
        gateway.internalToken = gateway.internalToken ?? identity.settings.internalToken
        gateway.tracer = Observability.exportingTracer
        return [
            try await buildIdentityApplication(identity),
            try await buildSocialApplication(SocialConfiguration(reader: reader(.social))),
            try await buildHouseholdApplication(HouseholdConfiguration(reader: reader(.household))),
            try await buildNotificationsApplication(NotificationsConfiguration(reader: reader(.notifications))),
            try await buildMessagingApplication(MessagingConfiguration(reader: reader(.messaging))),
            try await buildHabitsApplication(HabitsConfiguration(reader: reader(.habits))),
            try await buildGeoApplication(GeoConfiguration(reader: reader(.geo))),
            GatewayServer(configuration: gateway),
        ]
    }

    /// The services that keep their data in PostgreSQL when `DATABASE_URL` names a server: those `POSTGRES_SERVICES`
    /// names (comma-separated), every one when it is unset.
    public static func postgresServices(environment: [String: String]) throws -> [ServiceName] {
        guard let value = environment["POSTGRES_SERVICES"], !value.isEmpty else { return LocalStackSettings.services }
        return try value.split(separator: ",").map { name in
            let name = name.trimmingCharacters(in: .whitespaces)
            guard let service = ServiceName(rawValue: name) else {
                throw LocalStackError(
                    "POSTGRES_SERVICES: '\(name)' is not a service (\(LocalStackSettings.services.map(\.rawValue).joined(separator: ", ")))."
                )
            }
            return service
        }
    }

    /// With `DATABASE_URL` naming a PostgreSQL server, each of ``postgresServices(environment:)`` gets its own
    /// database on it (`platform_<service>`, created if missing).
    public static func postgresDatabases(environment: [String: String]) async throws -> [ServiceName: String] {
        guard let value = environment["DATABASE_URL"], !value.isEmpty else { return [:] }
        let server = try PostgresURL(value)
        if let database = server.database {
            throw LocalStackError(
                "DATABASE_URL names the database '\(database)': the local stack takes a server (postgres://user@host:5432) and gives each service its own database on it."
            )
        }
        var databases: [ServiceName: String] = [:]
        for service in try postgresServices(environment: environment) {
            let name = "platform_\(service.rawValue)"
            try await PostgresServiceDatabase.createIfMissing(
                name, on: server, logger: Logger(label: "platform.local-stack"))
            var url = URLComponents(string: value)!
            url.path = "/" + name
            databases[service] = url.string
        }
        return databases
    }

    /// The data folder exists (or can be made) and takes a file. POSIX calls, so that the message carries the
    /// system's reason ("Not a directory", "Permission denied", "Read-only file system").
    static func checkDataFolder(_ path: String) throws {
        func refuse(_ what: String) -> LocalStackError {
            LocalStackError(
                "the data folder '\(path)' cannot be written (\(what): \(String(cString: strerror(errno)))): choose another with DATA_DIR."
            )
        }
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST { throw refuse(prefix) }
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw refuse(path) }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            errno = ENOTDIR
            throw refuse(path)
        }
        let probe = "\(path)/.write-check-\(getpid())"
        let descriptor = open(probe, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw refuse(probe) }
        close(descriptor)
        unlink(probe)
    }

    /// Every port is free on loopback, so a busy one is named before anything starts.
    static func checkPorts(_ settings: LocalStackSettings) throws {
        if !portIsFree(settings.gatewayPort) {
            throw LocalStackError(
                "port \(settings.gatewayPort) (the gateway) is already in use: stop what listens there or choose another with GATEWAY_PORT."
            )
        }
        for service in LocalStackSettings.services where !portIsFree(settings.port(of: service)) {
            let first = settings.servicePortBase
            let last = first + LocalStackSettings.services.count - 1
            throw LocalStackError(
                "port \(settings.port(of: service)) (\(service.rawValue)) is already in use: stop what listens there or move the services (now \(first)-\(last)) with SERVICE_PORT_BASE."
            )
        }
    }

    /// Whether a listening socket could bind `port` on 127.0.0.1 (with SO_REUSEADDR, as the servers do).
    static func portIsFree(_ port: Int) -> Bool {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return bound == 0
    }
}
