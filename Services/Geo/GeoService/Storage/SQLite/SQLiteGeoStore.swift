import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The geo store in SQLite through GRDB (the default): one file, one writer, R*Tree indexes for the map. See
/// ``GeoStore``; schema in ``GeoMigrations``.
struct SQLiteGeoStore: GeoStore {
    private let database: ServiceDatabase
    /// Notices and events waiting for the notifications service, in this database.
    let outbox: (any OutboxStorage)?
    /// The secret of the per-pack pseudonyms (made by the v2 migration, never leaves the database).
    let pseudonymKey: Data

    /// Opens the database and migrates it (without a gazetteer: focused tests).
    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: GeoMigrations.migrator)
        self.outbox = SQLiteOutbox(writer: database.writer)
        self.pseudonymKey = try database.writer.read { db in
            try Data.fetchOne(db.cachedStatement(sql: "SELECT key FROM pseudonym_key WHERE id = 1")) ?? Data()
        }
    }

    /// Opens the database, migrates it, and loads the gazetteer unless its places came from that same file; the
    /// load runs on GRDB's writer queue, off the event loops.
    static func open(_ location: DatabaseLocation, gazetteer: URL?) async throws -> SQLiteGeoStore {
        let store = try SQLiteGeoStore(location)
        if let gazetteer { try await store.write { db in try loadGazetteer(from: gazetteer, into: db) } }
        return store
    }

    /// The database itself (record decoding tests read it directly).
    var reader: any DatabaseReader { database.writer }

    var probe: any DatabaseProbe { database }

    var services: [any Service] { [] }

    /// One read transaction; the `+Concern` files' methods go through here and ``write(_:)``.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// One write transaction whose change `notices` reports: recorded in it, and handed on once it committed.
    func write<Change: Sendable>(
        reporting notices: ChangeNotices<Change>?, _ body: @Sendable (Database) throws -> Change
    ) async throws -> Change {
        try await database.write(reporting: notices, body)
    }
}
