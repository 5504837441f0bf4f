import Foundation
import GRDB
import GRDBSQLite
import NIOCore
import NIOPosix
import Testing

@testable import ServiceKit

/// ``ServiceDatabase``'s reads: on an event loop through that loop's own connection, in one transaction; elsewhere
/// through GRDB's pool.
@Suite struct ServiceDatabaseTests {
    /// A file database with one table of numbers, removed with its directory at the end of the test.
    static func withNumbers(_ body: (ServiceDatabase) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE numbers (n INTEGER NOT NULL)")
        }
        let database = try ServiceDatabase(
            .file(directory.appendingPathComponent("test.sqlite").path), migrator: migrator)
        try await body(database)
    }

    static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM numbers") ?? -1
    }

    static func insert(_ n: Int, into database: ServiceDatabase) async throws {
        try await database.write { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [n]) }
    }

    @Test func readsOnEveryEventLoopUseThatLoopsConnectionAndSeeCommittedWrites() async throws {
        try await Self.withNumbers { database in
            try await Self.insert(1, into: database)
            for loop in NIOSingletons.posixEventLoopGroup.makeIterator() {
                let (connection, count) = try await loop.submit {
                    try database.read { db in (db.description, try Self.count(db)) }
                }.get()
                #expect(connection == ServiceDatabase.loopReaderLabel)
                #expect(count == 1)
            }
            try await Self.insert(2, into: database)
            for loop in NIOSingletons.posixEventLoopGroup.makeIterator() {
                #expect(try await loop.submit { try database.read(Self.count) }.get() == 2)
            }
        }
    }

    /// Functions given at opening are on every connection; using one leaves the statements a connection keeps
    /// compiled as they are, where installing it in the read (as habits' "near me" did) expires all of them.
    @Test func functionsAreInstalledAsConnectionsOpenAndKeepTheirStatementsCompiled() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sdb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let twice = DatabaseFunction("twice", argumentCount: 1, pure: true) { values in
            (Int.fromDatabaseValue(values[0]) ?? 0) * 2
        }
        let database = try ServiceDatabase(
            .file(directory.appendingPathComponent("test.sqlite").path), migrator: DatabaseMigrator(),
            functions: [twice])
        /// Runs a kept statement, then `between`, then the kept statement again: how often it was compiled again.
        @Sendable func recompilations(_ between: (Database) throws -> Void) throws -> Int32 {
            try database.read { db in
                let kept = try db.cachedStatement(sql: "SELECT 1")
                sqlite3_stmt_status(kept.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 1)  // reset
                _ = try Int.fetchOne(kept)
                try between(db)
                _ = try Int.fetchOne(kept)
                return sqlite3_stmt_status(kept.sqliteStatement, SQLITE_STMTSTATUS_REPREPARE, 0)
            }
        }
        for loop in NIOSingletons.posixEventLoopGroup.makeIterator() {
            let (doubled, kept, reinstalled) = try await loop.submit {
                (
                    try database.read { db in try Int.fetchOne(db, sql: "SELECT twice(21)") },
                    try recompilations { db in _ = try Int.fetchOne(db, sql: "SELECT twice(1)") },
                    try recompilations { db in db.add(function: twice) }
                )
            }.get()
            #expect(doubled == 42)
            #expect(kept == 0)
            #expect(reinstalled == 1)
        }
    }

    @Test func readsOffTheEventLoopsUseThePool() async throws {
        try await Self.withNumbers { database in
            let connection = try database.read { db in db.description }
            #expect(connection.hasPrefix("GRDB.DatabasePool.reader"))
        }
    }

    /// Two statements of one read see the same snapshot, even with a write committed between them.
    @Test func aReadOnAnEventLoopIsOneTransaction() async throws {
        try await Self.withNumbers { database in
            try await Self.insert(1, into: database)
            let loop = NIOSingletons.posixEventLoopGroup.next()
            let (before, after) = try await loop.submit {
                try database.read { db in
                    let before = try Self.count(db)
                    try database.writer.write { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (2)") }
                    return (before, try Self.count(db))
                }
            }.get()
            #expect(before == 1)
            #expect(after == 1)
            #expect(try await loop.submit { try database.read(Self.count) }.get() == 2)
        }
    }

    /// A read that throws hands its connection back outside a transaction (GRDB would stop the process otherwise),
    /// and the next read on that loop sees new writes.
    @Test func aFailingReadLeavesTheLoopsConnectionUsable() async throws {
        struct Refused: Error {}
        try await Self.withNumbers { database in
            let loop = NIOSingletons.posixEventLoopGroup.next()
            let outcome = try await loop.submit { () -> Bool in
                do {
                    _ = try database.read { db -> Int in
                        _ = try Self.count(db)
                        throw Refused()
                    }
                    return false
                } catch is Refused {
                    return true
                }
            }.get()
            #expect(outcome)
            try await Self.insert(1, into: database)
            #expect(try await loop.submit { try database.read(Self.count) }.get() == 1)
            let failedStatement = try await loop.submit { () -> Bool in
                (try? database.read { db in try Int.fetchOne(db, sql: "SELECT nothing FROM numbers") }) == nil
            }.get()
            #expect(failedStatement)
            #expect(try await loop.submit { try database.read(Self.count) }.get() == 1)
        }
    }
}
