import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The social graph's storage: the only place that knows SQL. Each method is one transaction; rules that need
/// a read (may this request be sent?) are checked inside it and throw ``SocialError``.
struct SocialDatabase: Sendable {
    private let writer: any DatabaseWriter

    init(_ location: DatabaseLocation) throws {
        self.writer = try ServiceDatabase.open(location, migrator: SocialMigrations.migrator)
    }

    /// For the readiness probe.
    var reader: any DatabaseReader { writer }

    /// One read transaction, for the `SocialDatabase+<Concern>` files.
    func read<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try writer.readInPlace(body)
    }

    /// One write transaction, for the `SocialDatabase+<Concern>` files.
    func write<T: Sendable>(_ body: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.write(body)
    }

    /// A friendship is stored once, under its two ids in order.
    static func pair(_ a: String, _ b: String) -> (low: String, high: String) {
        a < b ? (a, b) : (b, a)
    }
}
