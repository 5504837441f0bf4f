import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The identity service's storage: the only place that knows SQL. Each method is one transaction; its concerns
/// live in the `IdentityDatabase+<Concern>` files (users, avatars, sessions, revocations, passwords, outbox...).
struct IdentityDatabase: Sendable {
    private let database: ServiceDatabase

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: IdentityMigrations.migrator)
    }

    /// For the readiness probe.
    var reader: any DatabaseReader { database.writer }

    /// One read transaction, for the `IdentityDatabase+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction, for the `IdentityDatabase+<Concern>` files.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }
}
