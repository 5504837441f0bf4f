import Foundation
import GRDB
import NIOCore

/// Where a service keeps its SQLite database.
public enum DatabaseLocation: Sendable, Equatable {
    /// A file (WAL mode, a connection pool): production, the local stack, whole-stack tests.
    case file(String)
    /// A private in-memory database: focused tests.
    case inMemory
}

/// Opens service databases the one way the platform does it.
public enum ServiceDatabase {
    /// Opens the database at `location` and runs `migrator` to the latest version before returning.
    ///
    /// Files get a `DatabasePool` (WAL, readers in parallel with the writer); foreign keys are on (GRDB's
    /// default), writers wait up to 5 s for a lock instead of failing, and reads are memory-mapped.
    public static func open(_ location: DatabaseLocation, migrator: DatabaseMigrator) throws -> any DatabaseWriter {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        // Reads run on the calling thread (``DatabaseReader/readInPlace(_:)``): a reader for each of the event loops
        // that serve requests (NIO's singleton group, also the concurrency executor: ``EventLoopExecutor``), and as
        // many again for background work, so a request never waits for a connection.
        configuration.maximumReaderCount = max(5, 2 * NIOSingletons.groupLoopCountSuggestion)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA mmap_size = 268435456")
        }
        let writer: any DatabaseWriter
        switch location {
        case .file(let path):
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            writer = try DatabasePool(path: path, configuration: configuration)
        case .inMemory:
            writer = try DatabaseQueue(configuration: configuration)
        }
        try migrator.migrate(writer)
        return writer
    }
}

extension DatabaseReader {
    /// One read transaction run on the calling thread, for the services' `read` methods.
    ///
    /// GRDB's `async` read hops to the reader pool's queue and back (three thread hand-offs, with a futex wake
    /// each); a platform read is an indexed lookup or a bounded page of a memory-mapped WAL database, CPU work
    /// shorter than those hand-offs, so it runs where the request already is. The pool has a reader for every
    /// event loop, so it never waits for one behind another request (``ServiceDatabase/open(_:migrator:)``).
    public func readInPlace<T>(_ body: (Database) throws -> T) throws -> T {
        try read(body)
    }
}
