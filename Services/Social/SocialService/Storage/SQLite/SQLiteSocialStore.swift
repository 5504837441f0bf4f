import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The social graph's storage in SQLite through GRDB (one process). See ``SocialStore``.
struct SQLiteSocialStore: SocialStore {
    private let database: ServiceDatabase
    /// Notices and events waiting for the notifications service, in this database.
    let outbox: (any OutboxStorage)?

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: SocialMigrations.migrator)
        self.outbox = SQLiteOutbox(writer: database.writer)
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [] }

    /// The connection that writes, for transaction observers.
    var writer: any DatabaseWriter { database.writer }

    /// One read transaction, for the `SQLiteSocialStore+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction, for the `SQLiteSocialStore+<Concern>` files.
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
