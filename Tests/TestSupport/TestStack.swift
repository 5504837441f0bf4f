import Crypto
import Foundation
import GatewayService
import IdentityService
import Logging
import NIOCore
import NIOPosix
import PlatformKit
import ServiceKit
import ServiceLifecycle
import Synchronization

/// The scrape credential of every test stack's services and gateway.
private let testMetricsToken = "test-metrics-token"

/// The platform on loopback for whole-stack tests: the identity service, any other services a test
/// asks for, and the gateway in front, each on its own free port with a database in a fresh temporary
/// folder, a hand-moved clock, a fake SMTP server and a fake OpenID Connect issuer.
///
/// Use ``withTestStack(services:configureIdentity:_:)`` so the stack is always shut down.
public final class TestStack: Sendable {
    /// Builds a service from the settings the stack chose for it (port 0, temp database, clock, token).
    public typealias ServiceBuilder = @Sendable (ServiceSettings) async throws -> any Service

    public let clock: ManualClock
    public let smtp: FakeSMTPServer
    public let oidc: FakeOIDCIssuer
    public let internalToken: String
    /// The scrape credential every service and the gateway answer on `/metrics`.
    public let metricsToken = testMetricsToken
    public let dataDirectory: URL
    /// The databases of the services the stack keeps on PostgreSQL (the others use SQLite files in `dataDirectory`).
    public let databases: [ServiceName: DatabaseLocation]
    /// Requests through the gateway.
    public let gateway: APIClient
    /// Base URLs of the services, for direct calls (internal routes, comparisons): each one's first replica.
    public let serviceURLs: [ServiceName: String]
    /// Base URLs of every replica of each service (one unless the stack was started with `replicas`), in the order
    /// they were started; replica `n` (from 1) stops with `stop("<service>")` for the first, `"<service>-n"` after.
    public let replicaURLs: [ServiceName: [String]]
    private let groups: Mutex<[String: (group: ServiceGroup, task: Task<Void, any Error>)]>
    /// How each service was launched (by name, as ``stop(_:)`` takes it), for ``restart(_:)``.
    private let launches: Mutex<[String: Launch]>
    private let identityURL: ServiceAddress

    /// A service as the stack launched it: its builder and the port it listens on.
    struct Launch {
        let service: ServiceName
        let port: Int
        let build: ServiceBuilder
    }
    /// How the stack's gateway was configured, for ``startGateway(_:)``.
    private let gatewayConfiguration = Mutex<GatewayConfiguration?>(nil)

    private init(
        clock: ManualClock, smtp: FakeSMTPServer, oidc: FakeOIDCIssuer, internalToken: String, dataDirectory: URL,
        databases: [ServiceName: DatabaseLocation], gatewayPort: Int, replicaURLs: [ServiceName: [String]],
        groups: [String: (group: ServiceGroup, task: Task<Void, any Error>)], launches: [String: Launch]
    ) {
        self.clock = clock
        self.smtp = smtp
        self.oidc = oidc
        self.internalToken = internalToken
        self.dataDirectory = dataDirectory
        self.databases = databases
        self.gateway = APIClient(baseURL: "http://127.0.0.1:\(gatewayPort)", contract: .platform)
        self.serviceURLs = replicaURLs.compactMapValues(\.first)
        self.replicaURLs = replicaURLs
        self.groups = Mutex(groups)
        self.launches = Mutex(launches)
        self.identityURL = ServiceAddress(replicaURLs[.identity]?.first ?? "")
    }

    /// A direct client for one service (bypassing the gateway).
    public func direct(_ service: ServiceName) -> APIClient {
        APIClient(baseURL: serviceURLs[service] ?? "http://127.0.0.1:1", contract: .platform)
    }

    /// The services every stack keeps on PostgreSQL unless a test says otherwise: those named in
    /// `TEST_POSTGRES_SERVICES` (`identity,social,messaging,...`), so a run of the whole-stack suites with it set runs
    /// them against PostgreSQL.
    public static let postgresByDefault: Set<ServiceName> = Set(
        (ProcessInfo.processInfo.environment["TEST_POSTGRES_SERVICES"] ?? "").split(separator: ",")
            .compactMap { ServiceName(rawValue: $0.trimmingCharacters(in: .whitespaces)) })

    /// Starts identity, then `services`, then the gateway routing to them. The services named in `postgres` keep
    /// their data in a fresh database of the process's ``ThrowawayPostgres`` instead of a SQLite file; those named in
    /// `replicas` run that many processes' worth of replicas on one database (PostgreSQL only), all behind the
    /// gateway. A service named in `ports` listens there (its first replica), so others can be told its address
    /// before it starts (``freePort()``).
    public static func start(
        services: [ServiceName: ServiceBuilder] = [:], routes: [RouteTable.Entry] = RouteTable.entries,
        postgres: Set<ServiceName> = postgresByDefault, replicas: [ServiceName: Int] = [:],
        ports: [ServiceName: Int] = [:],
        configureIdentity: @Sendable (inout IdentityConfiguration) -> Void = { _ in },
        configureGateway: @Sendable (inout GatewayConfiguration) -> Void = { _ in }
    ) async throws -> TestStack {
        let clock = ManualClock(Date())
        let smtp = try await FakeSMTPServer.start()
        let oidc = try await FakeOIDCIssuer.start()
        let internalToken = "test-internal-token"
        let dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("stack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        var groups: [String: (group: ServiceGroup, task: Task<Void, any Error>)] = [:]
        var urls: [ServiceName: [String]] = [:]
        var databases: [ServiceName: DatabaseLocation] = [:]
        for service in postgres { databases[service] = .postgres(try await ThrowawayPostgres.freshDatabase()) }

        func settings(
            _ service: ServiceName, identityURL: ServiceAddress, port: Int = 0,
            onListening: @escaping @Sendable (Int) async -> Void
        ) -> ServiceSettings {
            ServiceSettings(
                service: service, port: port, dataDirectory: dataDirectory.path, database: databases[service],
                internalToken: internalToken,
                metricsToken: testMetricsToken, identityURL: identityURL, logLevel: .warning, clock: clock.wallClock,
                onListening: onListening)
        }
        var launches: [String: Launch] = [:]

        func name(_ service: ServiceName, replica: Int) -> String {
            replica == 1 ? service.rawValue : "\(service.rawValue)-\(replica)"
        }
        // Identity starts first; it learns where social listens once that starts (if it is in this stack).
        let socialURL = LateURL()
        // Replicas sign with one key, as a deployment's share one secret.
        let signingKey = Curve25519.Signing.PrivateKey()
        for replica in 1...max(1, replicas[.identity] ?? 1) {
            let identityPort = try await launch(name(.identity, replica: replica), into: &groups) { onListening in
                var configuration = IdentityConfiguration(
                    settings: settings(.identity, identityURL: "", onListening: onListening),
                    signingKey: signingKey, bcryptCost: 4,
                    oidcProviders: [
                        OIDCProvider(
                            name: "google", issuers: [oidc.issuer], jwksURL: oidc.jwksURL, audiences: [oidc.audience])
                    ],
                    smtp: SMTPSettings(
                        host: "127.0.0.1", port: smtp.port, security: .plain, sender: "no-reply@platform.test"),
                    // Without social in the stack the directory carries no relationships, as a deployment without it.
                    socialURL: services[.social] == nil ? nil : .late { socialURL.value ?? "http://127.0.0.1:1" })
                configureIdentity(&configuration)
                return try await buildIdentityApplication(configuration)
            }
            urls[.identity, default: []].append("http://127.0.0.1:\(identityPort)")
        }
        let identityURL = ServiceAddress(urls[.identity]![0])
        for (service, build) in services.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            for replica in 1...max(1, replicas[service] ?? 1) {
                let fixed = replica == 1 ? ports[service] ?? 0 : 0
                let port = try await launch(name(service, replica: replica), into: &groups) { onListening in
                    try await build(settings(service, identityURL: identityURL, port: fixed, onListening: onListening))
                }
                launches[name(service, replica: replica)] = Launch(service: service, port: port, build: build)
                urls[service, default: []].append("http://127.0.0.1:\(port)")
            }
        }
        socialURL.value = urls[.social]?.first
        var upstreams: [ServiceName: GatewayConfiguration.Upstream] = [:]
        for service in ServiceName.allCases {
            // Services not started point at a port nobody listens on: their routes answer 503.
            upstreams[service] =
                urls[service].flatMap { GatewayConfiguration.Upstream(url: $0.joined(separator: ",")) }
                ?? .init(host: "127.0.0.1", port: 1)
        }
        let gatewayPort = try await launch("gateway", into: &groups) { onListening in
            var configuration = GatewayConfiguration(
                port: 0, upstreams: upstreams, routes: routes, logLevel: .warning, internalToken: internalToken,
                metricsToken: testMetricsToken,
                clock: clock.wallClock, onListening: onListening)
            configureGateway(&configuration)
            return GatewayServer(configuration: configuration)
        }
        let stack = TestStack(
            clock: clock, smtp: smtp, oidc: oidc, internalToken: internalToken, dataDirectory: dataDirectory,
            databases: databases, gatewayPort: gatewayPort, replicaURLs: urls, groups: groups, launches: launches)
        stack.gatewayConfiguration.withLock {
            $0 = GatewayConfiguration(
                port: 0, upstreams: upstreams, routes: routes, logLevel: .warning, internalToken: internalToken,
                metricsToken: testMetricsToken,
                clock: clock.wallClock)
        }
        return stack
    }

    /// Starts one more gateway in front of the same services (as a second instance, or one started late) and
    /// returns a client for it; it stops with the stack, or by `stop(name)`.
    public func startGateway(_ name: String) async throws -> APIClient {
        guard var configuration = gatewayConfiguration.withLock({ $0 }) else { throw TestStackError.didNotStart(name) }
        var groups = [String: (group: ServiceGroup, task: Task<Void, any Error>)]()
        let port = try await Self.launch(name, into: &groups) { onListening in
            configuration.onListening = onListening
            return GatewayServer(configuration: configuration)
        }
        self.groups.withLock { $0.merge(groups) { _, new in new } }
        return APIClient(baseURL: "http://127.0.0.1:\(port)", contract: .platform)
    }

    /// Runs one service in its own service group and waits until it listens.
    private static func launch(
        _ name: String, into groups: inout [String: (group: ServiceGroup, task: Task<Void, any Error>)],
        _ build: (@escaping @Sendable (Int) async -> Void) async throws -> any Service
    ) async throws -> Int {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let service = try await build { port in continuation.yield(port) }
        var logger = Logger(label: "test-stack.\(name)")
        logger.logLevel = .warning
        let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
        let task = Task { try await group.run() }
        groups[name] = (group, task)
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw TestStackError.didNotStart(name) }
        return port
    }

    /// Stops a service the stack started (`"<service>"` or `"<service>-n"`) if it runs, and starts it again on the
    /// same port with the same data, as a restarted process.
    public func restart(_ name: String) async throws {
        guard let launch = launches.withLock({ $0[name] }) else { throw TestStackError.didNotStart(name) }
        await stop(name)
        try await relaunch(name, launch)
    }

    private func relaunch(_ name: String, _ launch: Launch) async throws {
        var groups = [String: (group: ServiceGroup, task: Task<Void, any Error>)]()
        let settings = { [self] (onListening: @escaping @Sendable (Int) async -> Void) in
            ServiceSettings(
                service: launch.service, port: launch.port, dataDirectory: dataDirectory.path,
                database: databases[launch.service], internalToken: internalToken, metricsToken: metricsToken,
                identityURL: identityURL, logLevel: .warning, clock: clock.wallClock, onListening: onListening)
        }
        _ = try await Self.launch(name, into: &groups) { onListening in try await launch.build(settings(onListening)) }
        self.groups.withLock { $0.merge(groups) { _, new in new } }
        launches.withLock { $0[name] = launch }
    }

    /// A loopback port nothing listens on now, for a service started later whose address others need first.
    public static func freePort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// Stops one component (`identity`, `gateway`, or a service name) and waits until it has stopped.
    public func stop(_ name: String) async {
        guard let entry = groups.withLock({ $0.removeValue(forKey: name) }) else { return }
        await entry.group.triggerGracefulShutdown()
        _ = try? await entry.task.value
    }

    /// Stops everything and deletes the temporary data.
    public func shutdown() async {
        // Identity last: the others long-poll its ended sessions and would log its absence.
        for name in groups.withLock({ Array($0.keys) }) where name != "identity" { await stop(name) }
        await stop("identity")
        await smtp.stop()
        await oidc.stop()
        try? FileManager.default.removeItem(at: dataDirectory)
        for case .postgres(let database) in databases.values { await ThrowawayPostgres.drop(database) }
    }
}

/// Why a stack could not start.
public enum TestStackError: Error {
    case didNotStart(String)
}

/// Starts a ``TestStack``, runs `body`, and shuts the stack down whatever happens.
public func withTestStack<T>(
    services: [ServiceName: TestStack.ServiceBuilder] = [:], routes: [RouteTable.Entry] = RouteTable.entries,
    postgres: Set<ServiceName> = TestStack.postgresByDefault, replicas: [ServiceName: Int] = [:],
    ports: [ServiceName: Int] = [:],
    configureIdentity: @Sendable (inout IdentityConfiguration) -> Void = { _ in },
    configureGateway: @Sendable (inout GatewayConfiguration) -> Void = { _ in },
    _ body: (TestStack) async throws -> T
) async throws -> T {
    // A stack started inside another's body is already admitted: waiting for a slot there could wait forever.
    if StackAdmission.admitted {
        return try await runStack(
            services, routes, postgres, replicas, ports, configureIdentity, configureGateway, body)
    }
    await StackAdmission.slots.acquire()
    defer { StackAdmission.slots.release() }
    return try await StackAdmission.$admitted.withValue(true) {
        try await runStack(services, routes, postgres, replicas, ports, configureIdentity, configureGateway, body)
    }
}

/// How many whole stacks run at once. Swift Testing starts every test together: unlimited, the stacks held over
/// 11,000 file descriptors at once (eight at a time: about 1,050), and under a lower `ulimit -n` the gateways
/// could not connect to their services (503s) while two shared cores starved long polls past their bounds. Four
/// per core keep both cores busy and finish the suite as fast.
enum StackAdmission {
    static let slots: AsyncSlots = {
        raiseDescriptorLimit()
        return AsyncSlots(max(4, 4 * ProcessInfo.processInfo.activeProcessorCount))
    }()
    @TaskLocal static var admitted = false

    /// Lifts the soft limit on open files to the hard one, as Go's runtime does for every program: a shell's
    /// default of 1,024 is below what eight stacks hold at once.
    private static func raiseDescriptorLimit() {
        #if canImport(Glibc)
            let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
            let openFiles = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(openFiles, &limit)
    }
}

private func runStack<T>(
    _ services: [ServiceName: TestStack.ServiceBuilder], _ routes: [RouteTable.Entry], _ postgres: Set<ServiceName>,
    _ replicas: [ServiceName: Int], _ ports: [ServiceName: Int],
    _ configureIdentity: @Sendable (inout IdentityConfiguration) -> Void,
    _ configureGateway: @Sendable (inout GatewayConfiguration) -> Void,
    _ body: (TestStack) async throws -> T
) async throws -> T {
    let stack = try await TestStack.start(
        services: services, routes: routes, postgres: postgres, replicas: replicas, ports: ports,
        configureIdentity: configureIdentity,
        configureGateway: configureGateway)
    do {
        let result = try await body(stack)
        await stack.shutdown()
        return result
    } catch {
        await stack.shutdown()
        throw error
    }
}

/// A URL known only after the service that needs it was built.
final class LateURL: Sendable {
    private let storage = Mutex<String?>(nil)
    var value: String? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// A counting semaphore for tasks: `acquire` waits, without blocking a thread, until a slot is free.
final class AsyncSlots: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ count: Int) {
        state = Mutex(State(free: count))
    }

    func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the slot to the longest waiter, else frees it.
    func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
