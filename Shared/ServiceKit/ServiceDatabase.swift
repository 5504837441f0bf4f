import Foundation
import GRDB
import NIOCore
import NIOPosix

/// Where a service keeps its database.
public enum DatabaseLocation: Sendable, Equatable {
    /// A SQLite file (WAL mode, a connection pool): one machine, the local stack, whole-stack tests.
    case file(String)
    /// A private in-memory SQLite database: focused tests.
    case inMemory
    /// A PostgreSQL database (`DATABASE_URL`): replicated deployments, for the services that support it.
    case postgres(PostgresURL)
}

/// A service's SQLite database, opened the one way the platform does it: one writer, and reads run in place.
///
/// Files get a `DatabasePool` (WAL, readers in parallel with the writer) and, for every event loop of NIO's singleton
/// group (also the concurrency executor: ``EventLoopExecutor``), a read-only connection of that loop's own; foreign
/// keys are on (GRDB's default), writers wait up to 5 s for a lock instead of failing, and reads are memory-mapped.
public struct ServiceDatabase: Sendable {
    /// The connection that writes (and, for in-memory databases, reads); also for the readiness probe.
    public let writer: any DatabaseWriter
    /// A read-only connection per event loop, found by the loop's identity (file databases only).
    private let loopReaders: [ObjectIdentifier: DatabaseQueue]
    /// The name of the event loops' connections (`Database.description`), in logs and GRDB's errors.
    static let loopReaderLabel = "ServiceDatabase.loopReader"

    /// Opens the database at `location` and runs `migrator` to the latest version before returning. `functions` are
    /// installed on every connection as it opens: installing one later, per read, expires every statement the
    /// connection keeps compiled (SQLite's rule for a function replaced), so each would be compiled again.
    public init(_ location: DatabaseLocation, migrator: DatabaseMigrator, functions: [DatabaseFunction] = []) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
            for function in functions { db.add(function: function) }
        }
        switch location {
        case .file(let path):
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            writer = try DatabasePool(path: path, configuration: configuration)
            try migrator.migrate(writer)
            // Opened after the migrations: the schema these connections cache never changes while they live.
            var readOnly = configuration
            readOnly.readonly = true
            readOnly.label = Self.loopReaderLabel
            var readers: [ObjectIdentifier: DatabaseQueue] = [:]
            for loop in NIOSingletons.posixEventLoopGroup.makeIterator() {
                readers[ObjectIdentifier(loop)] = try DatabaseQueue(path: path, configuration: readOnly)
            }
            loopReaders = readers
        case .inMemory:
            writer = try DatabaseQueue(configuration: configuration)
            try migrator.migrate(writer)
            loopReaders = [:]
        case .postgres:
            // A service's `open<Service>Store` chooses PostgreSQL before it gets here.
            throw ConfigurationError.invalid("a SQLite database cannot open DATABASE_URL")
        }
    }

    /// One read transaction, run on the calling thread.
    ///
    /// A platform read is an indexed lookup or a bounded page of a memory-mapped WAL database: CPU work shorter than
    /// the three thread hand-offs of GRDB's `async` read, so it runs where the request already is. On an event loop
    /// it uses that loop's own connection, which no other thread touches, with `BEGIN`/`COMMIT` as cached
    /// statements; GRDB's pool (a barrier queue, a semaphore, a dispatch group and a savepoint compiled anew per
    /// read) was a tenth of identity's `/v1/users/me` (docs/architecture.md, "Why the hot paths look this way").
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop,
            let reader = loopReaders[ObjectIdentifier(loop)]
        else { return try writer.read(body) }
        return try reader.inDatabase { db in
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            do {
                let value = try body(db)
                try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
                return value
            } catch {
                // GRDB stops the process if a connection is handed back inside a transaction.
                if db.isInsideTransaction { try? db.rollback() }
                throw error
            }
        }
    }

    /// One write transaction, on GRDB's writer queue.
    public func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(body)
    }
}
