import Configuration
import Foundation
import Logging
import NIOCore
import PlatformKit
import Tracing

/// Everything the gateway needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `HOST`, `PORT` | where to listen | 127.0.0.1, 8080 |
/// | `<SERVICE>_URL` (e.g. `IDENTITY_URL`) | where each service listens; several replicas as a comma-separated list (`http://a:8081,http://b:8081`), each new connection to the next one that has not refused lately | http://127.0.0.1:<its port> |
/// | `MAX_BODY_BYTES` | largest request body accepted | 10 MiB |
/// | `RATE_LIMIT_PER_MINUTE` | requests per client address per minute | 6000 |
/// | `LOG_LEVEL` | swift-log level | info |
/// | `INTERNAL_TOKEN` | the service credential, for identity's ended-session feed | unset: no feed |
/// | `METRICS_TOKEN` | the scrape credential: the only caller `/metrics` answers (`Authorization: Bearer`); must differ from `INTERNAL_TOKEN` | unset: `/metrics` closed |
/// | `APP_LINKS_APPLE_APP_IDS` | `TEAMID.bundle.id` values, comma-separated, for `/.well-known/apple-app-site-association` | unset: 404 |
/// | `APP_LINKS_ANDROID_APPS` | `package=SHA256:FP[\|FP]` entries, comma-separated, for `/.well-known/assetlinks.json` | unset: 404 |
/// | `APP_LINKS_PATHS` | the link paths the iOS apps open, comma-separated | /reset-password,/verify-email |
/// | `TRUSTED_PROXIES` | CIDRs, comma-separated, of the proxies in front of the gateway (an ingress controller's pods, a load balancer): only from those is `X-Forwarded-For` read for the client's address | empty: the peer is the client |
/// | `HEADER_TIMEOUT_SECONDS` | seconds to send a request head, from accept or from its first byte | 10 |
/// | `IDLE_TIMEOUT_SECONDS` | seconds a kept-alive connection waits for a request, a body for its next byte | 60 |
/// | `MAX_CONNECTIONS` | client connections held at once; more are closed at accept | 10000 |
/// | `MAX_CONNECTIONS_PER_ADDRESS` | the same from one peer address | 256 |
///
/// Tracing (`OTEL_*`) is read by the executable (ServiceKit's `Observability`), which sets ``tracer``.
public struct GatewayConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Where each service listens.
    public var upstreams: [ServiceName: Upstream]
    /// Which service owns which path prefix.
    public var routes: [RouteTable.Entry]
    /// Paths that need no access token.
    public var publicPaths: Set<String>
    /// Largest request body accepted, in bytes.
    public var maximumBodyBytes: Int
    /// Requests per client address per minute.
    public var requestsPerMinute: Int
    /// How long to wait for an upstream connection before answering 503.
    public var connectTimeout: TimeAmount
    /// How long to wait for an upstream's response head before answering 504.
    public var responseHeadTimeout: TimeAmount
    public var logLevel: Logger.Level
    /// The service credential (`INTERNAL_TOKEN`), for identity's ended-session feed. Without it ended sessions are
    /// refused only when their tokens expire.
    public var internalToken: String?
    /// The scrape credential (`METRICS_TOKEN`): the only caller `/metrics` answers; without it `/metrics` is closed.
    public var metricsToken: String?
    public var clock: WallClock
    /// The app association files served under `/.well-known/`.
    public var appLinks: AppLinks
    /// Records a span per forwarded request and continues its trace upstream; `nil` (tracing off) still
    /// forwards a `traceparent`, the client's trace continued or a new one, but records nothing.
    /// A value rather than the process-global tracer, so tests can run gateways exporting to different places.
    public var tracer: (any Tracer)?
    /// Called with the bound port once the gateway listens.
    public var onListening: (@Sendable (Int) async -> Void)?
    /// The proxies whose `X-Forwarded-For` names the client, for the rate limit and the services; empty, the peer
    /// is the client and the header is ignored.
    public var trustedProxies: TrustedProxies
    /// How long a client has to send a whole request head: from accept, and on a kept-alive connection from the
    /// first byte of its next request. A slow client holds a socket, not the gateway (nginx's `client_header_timeout`).
    public var headerTimeout: TimeAmount
    /// How long a kept-alive connection may wait for its next request, and a request body go without a byte
    /// (nginx's `keepalive_timeout` and `client_body_timeout`). A response in progress is never cut.
    public var idleTimeout: TimeAmount
    /// Client connections held at once; one more is closed as it is accepted. Each costs a socket (and one to
    /// its service while a request is on its way): 10,000 fits well under a container's usual 65,536 files.
    public var maximumConnections: Int
    /// Client connections held at once from one peer address. Browsers keep up to six per host and the apps
    /// fewer, so 256 leaves room for dozens of people behind one NAT while no single host takes more than a
    /// fortieth of ``maximumConnections``.
    public var maximumConnectionsPerAddress: Int

    /// Where one service listens: one address, or several for its replicas.
    public struct Upstream: Sendable, Hashable {
        /// One replica's address.
        public struct Address: Sendable, Hashable {
            public var host: String
            public var port: Int

            public init(host: String, port: Int) {
                self.host = host
                self.port = port
            }

            /// Its base URL.
            public var url: String { "http://\(host):\(port)" }
        }

        /// The replicas; new connections go to each in turn, skipping one that refused a connection lately.
        public var addresses: [Address]

        /// One replica at `host:port`.
        public init(host: String, port: Int) {
            addresses = [Address(host: host, port: port)]
        }

        /// Several replicas (at least one).
        public init(addresses: [Address]) {
            precondition(!addresses.isEmpty, "an upstream needs an address")
            self.addresses = addresses
        }

        /// Parses `http://host:port`, or several separated by commas (one per replica).
        public init?(url: String) {
            var addresses: [Address] = []
            for part in url.split(separator: ",", omittingEmptySubsequences: false) {
                guard let components = URLComponents(string: part.trimmingCharacters(in: .whitespaces)),
                    components.scheme == "http", let host = components.host, !host.isEmpty,
                    components.path.isEmpty || components.path == "/"
                else { return nil }
                addresses.append(Address(host: host, port: components.port ?? 80))
            }
            guard !addresses.isEmpty else { return nil }
            self.addresses = addresses
        }

        /// The first replica's base URL, for out-of-band calls (JWKS, OpenAPI documents).
        public var url: String { addresses[0].url }
    }

    public init(
        host: String = "127.0.0.1", port: Int = 8080, upstreams: [ServiceName: Upstream],
        routes: [RouteTable.Entry] = RouteTable.entries, publicPaths: Set<String> = RouteTable.publicPaths,
        maximumBodyBytes: Int = 10 << 20, requestsPerMinute: Int = 6000, connectTimeout: TimeAmount = .seconds(1),
        responseHeadTimeout: TimeAmount = .seconds(30), logLevel: Logger.Level = .info, internalToken: String? = nil,
        metricsToken: String? = nil, clock: WallClock = .system, appLinks: AppLinks = AppLinks(),
        tracer: (any Tracer)? = nil, onListening: (@Sendable (Int) async -> Void)? = nil,
        trustedProxies: TrustedProxies = TrustedProxies(), headerTimeout: TimeAmount = .seconds(10),
        idleTimeout: TimeAmount = .seconds(60), maximumConnections: Int = 10_000,
        maximumConnectionsPerAddress: Int = 256
    ) {
        self.appLinks = appLinks
        self.host = host
        self.port = port
        self.upstreams = upstreams
        self.routes = routes
        self.publicPaths = publicPaths
        self.maximumBodyBytes = maximumBodyBytes
        self.requestsPerMinute = requestsPerMinute
        self.connectTimeout = connectTimeout
        self.responseHeadTimeout = responseHeadTimeout
        self.logLevel = logLevel
        self.internalToken = internalToken
        self.metricsToken = metricsToken
        self.clock = clock
        self.tracer = tracer
        self.onListening = onListening
        self.trustedProxies = trustedProxies
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.maximumConnectionsPerAddress = maximumConnectionsPerAddress
    }

    /// Reads the configuration from the environment (see the table above).
    public init(reader: ConfigReader) throws {
        var upstreams: [ServiceName: Upstream] = [:]
        for service in ServiceName.allCases {
            let url = reader.string(
                forKey: ConfigKey([service.rawValue, "url"]), default: "http://127.0.0.1:\(service.defaultPort)")
            guard let upstream = Upstream(url: url) else {
                throw GatewayConfigurationError(
                    "\(service.rawValue.uppercased())_URL must be http://host:port, or several separated by commas")
            }
            upstreams[service] = upstream
        }
        let internalToken = reader.string(forKey: "internal.token", isSecret: true)
        let metricsToken = reader.string(forKey: "metrics.token", isSecret: true)
        if let metricsToken, metricsToken == internalToken {
            throw GatewayConfigurationError(
                "METRICS_TOKEN must differ from INTERNAL_TOKEN: a scraper's credential must not open internal routes")
        }
        // A limiter of capacity 0 would refuse everyone with an infinite wait.
        let requestsPerMinute = try Self.positive(
            reader, "rate.limit.per.minute", default: 6000, maximum: 1_000_000_000)
        let trustedProxies: TrustedProxies
        do {
            trustedProxies = try TrustedProxies(parsing: reader.string(forKey: "trusted.proxies", default: ""))
        } catch {
            throw GatewayConfigurationError(
                "TRUSTED_PROXIES: `\(error.entry)` is not a CIDR such as 10.0.0.0/8 or fd00::/8: \(error.reason)")
        }
        self.init(
            host: reader.string(forKey: "host", default: "127.0.0.1"),
            port: try Self.port(reader),
            upstreams: upstreams, maximumBodyBytes: try Self.positive(reader, "max.body.bytes", default: 10 << 20),
            requestsPerMinute: requestsPerMinute,
            logLevel: Logger.Level(rawValue: reader.string(forKey: "log.level", default: "info")) ?? .info,
            internalToken: internalToken, metricsToken: metricsToken,
            appLinks: AppLinks(
                appleAppIDs: AppLinks.list(reader.string(forKey: "app.links.apple.app.ids", default: "")),
                androidApps: try AppLinks.androidApps(reader.string(forKey: "app.links.android.apps", default: "")),
                paths: AppLinks.list(
                    reader.string(
                        forKey: "app.links.paths", default: AppLinks.defaultPaths.joined(separator: ",")))),
            trustedProxies: trustedProxies,
            headerTimeout: try Self.seconds(reader, "header.timeout.seconds", default: 10),
            idleTimeout: try Self.seconds(reader, "idle.timeout.seconds", default: 60),
            maximumConnections: try Self.positive(reader, "max.connections", default: 10_000),
            maximumConnectionsPerAddress: try Self.positive(reader, "max.connections.per.address", default: 256))
    }

    /// A whole number of seconds from 1 to a day: zero or less would close every connection at once.
    private static func seconds(_ reader: ConfigReader, _ key: ConfigKey, default value: Int) throws -> TimeAmount {
        .seconds(Int64(try positive(reader, key, default: value, maximum: 86_400)))
    }

    private static func positive(
        _ reader: ConfigReader, _ key: ConfigKey, default value: Int, maximum: Int = 1 << 30
    ) throws -> Int {
        do {
            return try NumberSetting.wholeNumber(
                reader.string(forKey: key), variable: key.components.joined(separator: "_").uppercased(),
                default: value, in: 1...maximum)
        } catch {
            throw GatewayConfigurationError(error.description)
        }
    }

    /// `PORT`, strictly: with the reader's `int(forKey:default:)`, `abc` meant the default and 70000 was bound as 4464.
    private static func port(_ reader: ConfigReader) throws -> Int {
        do {
            return try NumberSetting.port(reader.string(forKey: "port"), variable: "PORT", default: 8080)
        } catch {
            throw GatewayConfigurationError(error.description)
        }
    }
}

/// A configuration value the gateway cannot start with.
public struct GatewayConfigurationError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
