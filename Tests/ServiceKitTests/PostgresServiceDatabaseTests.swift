import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import ServiceKit
import ServiceLifecycle
import Synchronization
import TestSupport
import Testing

@Suite struct PostgresServiceDatabaseTests {
    let logger = Logger(label: "test.postgres")
    let migrations = [
        PostgresMigration("1-counters", "CREATE TABLE counters (name text PRIMARY KEY, value bigint NOT NULL)"),
        PostgresMigration("2-seed", "INSERT INTO counters VALUES ('a', 0); INSERT INTO counters VALUES ('b', 0)"),
        // A PL/pgSQL body holds `;` of its own: the runner splits statements outside dollar quotes only.
        PostgresMigration(
            "3-audit",
            """
            CREATE TABLE audit (name text NOT NULL, note text NOT NULL); -- one row per change; not 'quoted; here'
            CREATE FUNCTION audit_change() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                INSERT INTO audit VALUES (NEW.name, 'changed; see ''value''');
                RETURN NEW;
            END;
            $body$;
            CREATE TRIGGER counters_audit AFTER UPDATE ON counters FOR EACH ROW EXECUTE FUNCTION audit_change()
            """),
    ]

    /// Runs `body` while `database`'s pool runs.
    func withRunning<T: Sendable>(_ database: PostgresServiceDatabase, _ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.service.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    @Test func migrationsRunOnceEvenWhenReplicasStartTogether() async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        let migrations = migrations
        let logger = logger
        // Three replicas starting at once: the advisory lock lets one migrate; the seed rows exist once.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    _ = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
                }
            }
            try await group.waitForAll()
        }
        let database = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
        let count = try await withRunning(database) {
            try await database.read { session in
                try await session.connection.query("SELECT count(*) FROM counters", logger: logger).decode(Int.self)
                    .first { _ in true } ?? -1
            }
        }
        #expect(count == 2)
    }

    @Test func serializationFailuresAreRetriedUntilEveryIncrementLands() async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        let database = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
        let logger = logger
        let total = try await withRunning(database) {
            // Ten read-then-write increments of one row at SERIALIZABLE collide; each collision is run again (as
            // many times as there are writers, at worst: each round commits at least one).
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await database.write(isolation: .serializable, attempts: 30) { session in
                            let value =
                                try await session.connection.query(
                                    "SELECT value FROM counters WHERE name = 'a'", logger: logger
                                ).decode(Int.self).first { _ in true } ?? 0
                            _ = try await session.connection.query(
                                "UPDATE counters SET value = \(value + 1) WHERE name = 'a'", logger: logger)
                        }
                    }
                }
                try await group.waitForAll()
            }
            return try await database.read { session in
                let value =
                    try await session.connection.query("SELECT value FROM counters WHERE name = 'a'", logger: logger)
                    .decode(Int.self).first { _ in true } ?? -1
                let audited =
                    try await session.connection.query(
                        "SELECT count(*) FROM audit WHERE note = 'changed; see ''value'''", logger: logger
                    ).decode(Int.self).first { _ in true } ?? -1
                return (value, audited)
            }
        }
        #expect(total.0 == 10)
        #expect(total.1 == 10)
    }

    @Test func anErrorThrownInsideAWriteRollsItBackAndComesOutAsThrown() async throws {
        struct Refused: Error {}
        let url = try await ThrowawayPostgres.freshDatabase()
        let database = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
        let logger = logger
        let value = try await withRunning(database) {
            await #expect(throws: Refused.self) {
                try await database.write { session in
                    _ = try await session.connection.query(
                        "UPDATE counters SET value = 99 WHERE name = 'b'", logger: logger)
                    throw Refused()
                }
            }
            return try await database.read { session in
                try await session.connection.query("SELECT value FROM counters WHERE name = 'b'", logger: logger)
                    .decode(Int.self).first { _ in true } ?? -1
            }
        }
        #expect(value == 0)
    }

    @Test func aNoticeCommittedOnOneReplicaReachesTheOthersListener() async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        let writer = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
        let reader = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
        let (notices, continuation) = AsyncStream.makeStream(of: String?.self)
        let listener = PostgresChangeListener(database: reader, channel: "counters") { continuation.yield($0) }
        let received = try await withRunning(writer) {
            try await withRunning(reader) {
                try await withThrowingTaskGroup(of: Void.self) { group -> String? in
                    group.addTask { try await listener.run() }
                    defer { group.cancelAll() }
                    var iterator = notices.makeAsyncIterator()
                    // The listener says when it is in place (nil: catch up from the tables); a notice committed
                    // after that reaches it.
                    guard case .some(.none) = await iterator.next() else { return nil }
                    try await writer.write { session in try await session.notify("counters", payload: "a:1") }
                    return await iterator.next() ?? nil
                }
            }
        }
        #expect(received == "a:1")
    }

    @Test func readinessReportsADatabaseThatNoLongerAnswers() async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        let database = try await PostgresServiceDatabase.open(url, migrations: migrations, logger: logger)
        let admin = try await PostgresServiceDatabase.open(
            url.naming(database: "postgres"), migrations: [], logger: logger)
        let router = ServiceApplication.router(metrics: ServiceMetrics(), openAPIDocument: Data(), probe: database)
        let name = try #require(url.database)
        let logger = logger
        try await withRunning(admin) {
            try await withRunning(database) {
                let app = Application(router: router)
                try await app.test(.router) { client in
                    // The first answer opens a connection; on a loaded machine that can take longer than the probe's
                    // two seconds.
                    #expect(
                        try await eventually(within: .seconds(20)) {
                            try await client.execute(uri: "/health/ready", method: .get) { $0.status == .ok }
                        })
                    // The database goes away: no new connection is allowed and the pool's are ended.
                    try await admin.read { session in
                        _ = try await session.connection.query(
                            PostgresQuery(unsafeSQL: "ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS false"),
                            logger: logger)
                        _ = try await session.connection.query(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(name)",
                            logger: logger)
                    }
                    try await client.execute(uri: "/health/ready", method: .get) { response in
                        #expect(response.status == .serviceUnavailable)
                        #expect(String(buffer: response.body).contains("not_ready"))
                    }
                    // Back again: ready again, once the pool's next attempt to connect (it backs off after
                    // failures) finds the database.
                    try await admin.read { session in
                        _ = try await session.connection.query(
                            PostgresQuery(unsafeSQL: "ALTER DATABASE \"\(name)\" ALLOW_CONNECTIONS true"),
                            logger: logger)
                    }
                    #expect(
                        try await eventually(within: .seconds(20)) {
                            try await client.execute(uri: "/health/ready", method: .get) { $0.status == .ok }
                        })
                }
            }
        }
    }

    @Test func aWrongURLOrAnUnreachableServerStopsStartUpWithOneLine() async throws {
        #expect(throws: ConfigurationError.self) { try PostgresURL("mysql://x@y/z") }
        #expect(throws: ConfigurationError.self) { try PostgresURL("postgres://u@h/db?sslmode=sometimes") }
        let parsed = try PostgresURL("postgres://app:s%40cret@db.internal:6432/identity?sslmode=verify-full")
        #expect(parsed.password == "s@cret" && parsed.port == 6432 && parsed.database == "identity")
        #expect(!parsed.description.contains("cret"))
        #expect(parsed.maximumConnections == 20)
        #expect(try PostgresURL("postgres://u@h/db?pool_max_conns=4").maximumConnections == 4)
        for count in ["0", "1001", "-1", "many", "99999999999999999999"] {
            #expect(throws: ConfigurationError.self) { try PostgresURL("postgres://u@h/db?pool_max_conns=\(count)") }
        }

        let server = try await ThrowawayPostgres.shared().serverURL
        var nobody = server.naming(database: "postgres")
        nobody.port = 1  // nothing listens on port 1
        do {
            _ = try await PostgresServiceDatabase.open(nobody, migrations: [], logger: logger)
            Issue.record("opened a database on a closed port")
        } catch let error as ConfigurationError {
            #expect("\(error)".hasPrefix("invalid configuration: DATABASE_URL postgres://postgres@127.0.0.1:1/"))
            #expect(!"\(error)".contains("\n"))
        }
        var stranger = server.naming(database: "no_such_database")
        stranger.username = "postgres"
        do {
            _ = try await PostgresServiceDatabase.open(stranger, migrations: [], logger: logger)
            Issue.record("opened a database that does not exist")
        } catch let error as ConfigurationError {
            #expect("\(error)".contains("no_such_database"))
        }
    }

    @Test func aLostDatabaseIsA503TheClientMayRetryAndABadStatementA500() async throws {
        let url = try await ThrowawayPostgres.freshDatabase()
        let logger = Logger(label: "test")
        let connection = try await PostgresConnection.connect(
            configuration: url.connectionConfiguration(), id: 1, logger: logger)
        // A statement PostgreSQL refuses is the service's own fault: 500.
        let broken = await #expect(throws: PSQLError.self) {
            _ = try await connection.query("SELECT no_such_column FROM pg_class", logger: logger).collect()
        }
        #expect(ProblemMiddleware<BasicRequestContext>.problem(for: try #require(broken), logger: logger).status == 500)
        // The server ending the connection (as a failover or a restart does): 503 with Retry-After.
        let lost = await #expect(throws: PSQLError.self) {
            _ = try await connection.query("SELECT pg_terminate_backend(pg_backend_pid())", logger: logger).collect()
            _ = try await connection.query("SELECT 1", logger: logger).collect()
        }
        try? await connection.close()
        let problem = ProblemMiddleware<BasicRequestContext>.problem(for: try #require(lost), logger: logger)
        #expect(problem.status == 503 && problem.code == "database_unavailable" && problem.retryAfter == 1)
    }
}
