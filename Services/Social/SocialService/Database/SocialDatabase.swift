import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The social graph's storage: the only place that knows SQL. Each method is one transaction; rules that need
/// a read (may this request be sent?) are checked inside it and throw ``SocialError``.
struct SocialDatabase: Sendable {
    private let database: ServiceDatabase

    init(_ location: DatabaseLocation) throws {
        self.database = try ServiceDatabase(location, migrator: SocialMigrations.migrator)
    }

    /// For the readiness probe.
    var reader: any DatabaseReader { database.writer }

    /// The connection that writes, for transaction observers.
    var writer: any DatabaseWriter { database.writer }

    /// One read transaction, for the `SocialDatabase+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try database.read(body)
    }

    /// One write transaction, for the `SocialDatabase+<Concern>` files.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await database.write(body)
    }

    /// A friendship is stored once, under its two ids in order.
    static func pair(_ a: String, _ b: String) -> (low: String, high: String) {
        a < b ? (a, b) : (b, a)
    }
}
