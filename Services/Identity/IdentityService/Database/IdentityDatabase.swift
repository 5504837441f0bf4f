import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The identity service's storage: the only place that knows SQL. Each method is one transaction; its concerns
/// live in the `IdentityDatabase+<Concern>` files (users, avatars, sessions, revocations, passwords, outbox...).
struct IdentityDatabase: Sendable {
    private let writer: any DatabaseWriter

    init(_ location: DatabaseLocation) throws {
        self.writer = try ServiceDatabase.open(location, migrator: IdentityMigrations.migrator)
    }

    /// For the readiness probe.
    var reader: any DatabaseReader { writer }

    /// One read transaction, for the `IdentityDatabase+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try writer.readInPlace(body)
    }

    /// One write transaction, for the `IdentityDatabase+<Concern>` files.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(body)
    }
}
