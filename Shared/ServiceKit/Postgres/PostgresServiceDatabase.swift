import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// One append-only step of a service's PostgreSQL schema: a name that is never reused and the SQL it runs (several
/// statements separated by `;`; they run in one transaction with the step's record).
public struct PostgresMigration: Sendable {
    public let name: String
    public let sql: String

    /// A step called `name` running `sql`.
    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }

    /// The statements of `sql` one by one (PostgreSQL's extended protocol runs one per message): split at `;` outside
    /// quotes, quoted identifiers, dollar-quoted bodies (`$$ ... $$`, PL/pgSQL functions) and comments.
    var statements: [String] {
        var statements: [String] = []
        var current = ""
        var characters = Array(sql)[...]
        while let character = characters.popFirst() {
            switch character {
            case "'", "\"":
                current.append(character)
                while let next = characters.popFirst() {
                    current.append(next)
                    if next == character { break }
                }
            case "-" where characters.first == "-":
                while let next = characters.popFirst(), next != "\n" {}
                current.append("\n")
            case "$":
                // `$tag$ ... $tag$`: copy up to the same tag.
                var tag = "$"
                while let next = characters.first, next != "$", next.isLetter || next.isNumber || next == "_" {
                    tag.append(characters.removeFirst())
                }
                guard characters.first == "$" else {
                    current += tag
                    continue
                }
                tag.append(characters.removeFirst())
                current += tag
                var body = ""
                while let next = characters.popFirst() {
                    body.append(next)
                    if body.hasSuffix(tag) { break }
                }
                current += body
            case ";":
                statements.append(current)
                current = ""
            default:
                current.append(character)
            }
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

/// A service's PostgreSQL database: a pool of connections, the schema brought up to date before the service serves,
/// and transactions retried when PostgreSQL asks for it.
///
/// Built by ``open(_:migrations:logger:)``, which connects once with a short timeout (so a wrong URL, an unreachable
/// server or wrong credentials stop start-up with one line) and migrates under an advisory lock (replicas starting
/// together migrate once). The pool itself runs as ``service``, part of the service's `ServiceGroup`.
public final class PostgresServiceDatabase: Sendable {
    /// One pool per event loop, its connections on that loop (``read(_:)`` and ``write(isolation:attempts:_:)`` use
    /// the pool of the loop they are called on).
    ///
    /// A request then stays on its loop from the socket read through its statements to the answer. With one pool
    /// spread over the loops, half of the statements went out through another loop's connection and the request came
    /// back on that loop: two thread wake-ups per request, and all connections ended up on the loop the pool's own task
    /// ran on (one loop thread five times as busy as the other, profiled under messaging's hot read).
    private let pools: [ObjectIdentifier: PostgresClient]
    /// The pool for work off the event loops (start-up, background jobs, the change listener).
    public let client: PostgresClient
    public let url: PostgresURL
    let logger: Logger

    private init(url: PostgresURL, logger: Logger) throws {
        let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
        var configuration = try url.clientConfiguration()
        // The connections a replica may hold, shared among its loops (PostgreSQL's default limit is 100 in all).
        configuration.options.maximumConnections = max(1, url.maximumConnections / max(loops.count, 1))
        var pools: [ObjectIdentifier: PostgresClient] = [:]
        for loop in loops {
            pools[ObjectIdentifier(loop)] = PostgresClient(
                configuration: configuration, eventLoopGroup: PinnedEventLoopGroup(loop), backgroundLogger: logger)
        }
        self.pools = pools
        self.client = pools[ObjectIdentifier(loops[0])]!
        self.url = url
        self.logger = logger
    }

    /// Connects to `url`, runs the `migrations` not yet applied, and returns the database ready to serve once its
    /// ``service`` runs.
    public static func open(_ url: PostgresURL, migrations: [PostgresMigration], logger: Logger) async throws
        -> PostgresServiceDatabase
    {
        guard url.database != nil else {
            throw ConfigurationError.invalid("DATABASE_URL names no database (postgres://user@host:5432/DATABASE)")
        }
        try await withStartupConnection(url, logger: logger) { connection in
            try await migrate(connection, migrations, logger: logger)
        }
        return try PostgresServiceDatabase(url: url, logger: logger)
    }

    /// Creates `database` on the server `url` names unless it exists (the local stack's one database per service).
    public static func createIfMissing(_ database: String, on url: PostgresURL, logger: Logger) async throws {
        try await withStartupConnection(url.naming(database: "postgres"), logger: logger) { connection in
            let found = try await connection.query(
                "SELECT 1 FROM pg_database WHERE datname = \(database)", logger: logger
            ).collect()
            guard found.isEmpty else { return }
            // Identifiers cannot be bound; the name is the platform's own (a service's name), quoted anyway.
            let quoted = "\"" + database.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            do {
                _ = try await connection.simpleQuery("CREATE DATABASE \(quoted)").get()
            } catch let error as PSQLError where error.sqlState == "42P04" {
                // Another process created it between the check and here.
            }
        }
    }

    /// The pools, run for as long as the service runs.
    public var service: some Service { PoolsService(pools: Array(pools.values), logger: logger) }

    /// The pool of the event loop the caller runs on, or the first one off the loops.
    private var pool: PostgresClient {
        MultiThreadedEventLoopGroup.currentEventLoop.flatMap { pools[ObjectIdentifier($0)] } ?? client
    }

    /// Runs `body` on one pooled connection, outside any explicit transaction (each statement sees committed data).
    public func read<T: Sendable>(_ body: @Sendable (PostgresSession) async throws -> T) async throws -> T {
        let logger = logger
        return try await pool.withConnection { connection in
            try await body(PostgresSession(connection: connection, logger: logger))
        }
    }

    /// Runs `body` in one transaction at `isolation`, committed if it returns; PostgreSQL's serialization failures
    /// and deadlocks (SQLSTATE 40001, 40P01) run it again, up to `attempts` times, so `body` must have no effect
    /// outside the database. Errors `body` throws come out as thrown.
    public func write<T: Sendable>(
        isolation: TransactionIsolation = .readCommitted, attempts: Int = 8,
        _ body: @Sendable (PostgresSession) async throws -> T
    ) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await pool.withConnection { connection in
                    try await Self.transaction(on: connection, isolation: isolation, logger: logger, body)
                }
            } catch let error as PSQLError where error.isRetryable && attempt < attempts {
                attempt += 1
                // A little jitter so that the transactions that collided do not collide again.
                try await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// Isolation levels a ``write(isolation:attempts:_:)`` runs at.
    public enum TransactionIsolation: String, Sendable {
        case readCommitted = "READ COMMITTED"
        case repeatableRead = "REPEATABLE READ"
        case serializable = "SERIALIZABLE"
    }

    /// Answers if the database answers within two seconds; the readiness probe. (A pool that cannot connect keeps a
    /// lease waiting while it retries: the probe must answer "not ready", not hang.)
    ///
    /// The query runs in a task of its own, not a task group's child: a lease cancelled while its pool cannot connect
    /// is not always given up, and a group waits for its children, so the probe hung (seen in the test suite, with
    /// the database refusing connections).
    public func ping() async throws {
        let client = client
        let logger = logger
        let outcome = await firstOf(
            {
                do {
                    _ = try await client.query("SELECT 1", logger: logger).collect()
                    return Result<Void, any Error>.success(())
                } catch {
                    return .failure(error)
                }
            },
            {
                try? await Task.sleep(for: .seconds(2))
                return .failure(DatabaseNotAnswering())
            })
        try (outcome ?? .failure(CancellationError())).get()
    }

    /// The database did not answer the readiness probe in time.
    struct DatabaseNotAnswering: Error {}

    private static func transaction<T: Sendable>(
        on connection: PostgresConnection, isolation: TransactionIsolation, logger: Logger,
        _ body: @Sendable (PostgresSession) async throws -> T
    ) async throws -> T {
        _ = try await connection.query(
            PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(isolation.rawValue)"), logger: logger)
        do {
            let value = try await body(PostgresSession(connection: connection, logger: logger))
            _ = try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            // A connection whose rollback failed is broken; the pool drops it.
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    private static func withStartupConnection(
        _ url: PostgresURL, logger: Logger, _ body: (PostgresConnection) async throws -> Void
    ) async throws {
        // One connection, not the pool: the pool retries for ever, start-up wants one attempt and its error.
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: url.connectionConfiguration(), id: 0, logger: logger)
        } catch let error as PSQLError {
            throw ConfigurationError.invalid("DATABASE_URL \(url): \(error.briefDescription)")
        }
        do {
            try await body(connection)
            try await connection.close()
        } catch {
            try? await connection.close()
            if let error = error as? PSQLError {
                throw ConfigurationError.invalid("DATABASE_URL \(url): \(error.briefDescription)")
            }
            throw error
        }
    }

    private static func migrate(_ connection: PostgresConnection, _ migrations: [PostgresMigration], logger: Logger)
        async throws
    {
        // One process migrates at a time; the others wait and then find nothing left to do.
        // (A session lock: it ends with this start-up connection.)
        _ = try await connection.query("SELECT pg_advisory_lock(7461736874)", logger: logger)
        _ = try await connection.simpleQuery(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name text PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """
        ).get()
        var applied = Set<String>()
        for try await name in try await connection.query("SELECT name FROM schema_migrations", logger: logger)
            .decode(String.self)
        {
            applied.insert(name)
        }
        for migration in migrations where !applied.contains(migration.name) {
            logger.info("migrating PostgreSQL", metadata: ["migration": "\(migration.name)"])
            _ = try await connection.simpleQuery("BEGIN").get()
            do {
                for statement in migration.statements {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                _ = try await connection.query(
                    "INSERT INTO schema_migrations (name) VALUES (\(migration.name))", logger: logger)
                _ = try await connection.simpleQuery("COMMIT").get()
            } catch {
                _ = try? await connection.simpleQuery("ROLLBACK").get()
                throw error
            }
        }
    }
}

extension PSQLError {
    /// The SQLSTATE the server answered with, if it answered.
    public var sqlState: String? { serverInfo?[.sqlState] }

    /// A serialization failure or deadlock: the transaction may succeed if run again.
    public var isRetryable: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// A unique constraint refused the statement.
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// The database could not be reached or is changing hands (a lost connection, a server shutting down or
    /// recovering, a former primary now read-only): worth trying again shortly, not the request's fault.
    public var meansDatabaseUnavailable: Bool {
        if [.clientClosedConnection, .serverClosedConnection, .connectionError, .uncleanShutdown, .poolClosed]
            .contains(code)
        {
            return true
        }
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "25006"].contains(sqlState)
    }

    /// One line for an operator: the server's message, or what kept the client from reaching it.
    var briefDescription: String {
        if let message = serverInfo?[.message] { return message }
        if let underlying = underlying { return "\(underlying)" }
        return "\(code)"
    }
}

/// Runs every loop's pool for as long as the service runs.
///
/// PostgresNIO 1.33.2's pool can keep waiting on a connection it is opening when it is shut down
/// (vapor/postgres-nio#599, fixed in a later release), and a pool whose connections are still leased waits for them:
/// in the test suite pools often took longer than the rest of a service to end, and waited for, hung the suite (seen
/// once the whole run). So each pool runs in a task of its
/// own, and at shutdown the pools get a few seconds to end before the service ends without them (the process is
/// about to exit, or the test moves on). This is not what keeps the local stack from stopping on SIGTERM after a
/// failover drill (deploy/failover/README.md): that still happens with it.
private struct PoolsService: Service {
    let pools: [PostgresClient]
    let logger: Logger

    /// How long the pools get to end once the service group stops.
    static let shutdownAllowance = Duration.seconds(3)

    func run() async {
        let running = pools.map { pool in Task { await pool.run() } }
        // Until the service group shuts down, gracefully or not.
        try? await gracefulShutdown()
        for task in running { task.cancel() }
        // In a task of its own: this task may be cancelled already (a task group stopping), and the allowance holds
        // all the same.
        let ended = await Task {
            await firstOf(
                {
                    for task in running { await task.value }; return true
                },
                {
                    try? await Task.sleep(for: Self.shutdownAllowance); return false
                })
        }.value
        if ended != true {
            logger.warning("PostgreSQL pools still ending \(Self.shutdownAllowance) after shutdown; leaving them")
        }
    }
}

/// One event loop seen as a group: a pool built on it opens all its connections on that loop.
private final class PinnedEventLoopGroup: EventLoopGroup {
    private let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func next() -> any EventLoop { loop }
    func any() -> any EventLoop { loop }
    func makeIterator() -> EventLoopIterator { EventLoopIterator([loop]) }

    func shutdownGracefully(queue: DispatchQueue, _ callback: @escaping @Sendable ((any Error)?) -> Void) {
        // The loop is the singleton group's: it lives as long as the process.
        queue.async { callback(nil) }
    }

    func _preconditionSafeToSyncShutdown(file: StaticString, line: UInt) {}
}

/// The result of whichever of `a` and `b` ends first, each in a task of its own; the other is cancelled but not
/// waited for (it may not end when cancelled). `nil` when the caller is cancelled first.
private func firstOf<T: Sendable>(
    _ a: @escaping @Sendable () async -> T, _ b: @escaping @Sendable () async -> T
) async -> T? {
    let (results, continuation) = AsyncStream.makeStream(of: T.self)
    let tasks = [Task { continuation.yield(await a()) }, Task { continuation.yield(await b()) }]
    defer { for task in tasks { task.cancel() } }
    for await result in results { return result }
    return nil
}
