import Foundation
import GRDB
import PlatformKit
import ServiceKit
import ServiceLifecycle

/// The identity store in SQLite (GRDB): one machine, the local stack, most tests. Each method is one transaction;
/// its concerns live in the `SQLiteIdentityStore+<Concern>` files (users, avatars, sessions, revocations,
/// passwords, outbox...).
struct SQLiteIdentityStore: IdentityStore {
    private let database: ServiceDatabase

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: IdentityMigrations.migrator)
    }

    var probe: any DatabaseProbe { database }
    var services: [any Service] { [] }

    /// One process writes the file: whoever ends a session here tells the bell itself.
    func revocationWatcher(_ onRecorded: @escaping @Sendable () async -> Void) -> (any Service)? { nil }

    /// One read transaction, for the `SQLiteIdentityStore+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction, for the `SQLiteIdentityStore+<Concern>` files.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }
}
