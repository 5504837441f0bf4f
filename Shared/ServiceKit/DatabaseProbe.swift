import GRDB
import ServiceLifecycle

/// What the readiness probe asks: does the service's database answer? Both stores' databases conform.
public protocol DatabaseProbe: Sendable {
    /// Throws unless the database answers a trivial query.
    func ping() async throws
}

/// A SQLite database's probe: one trivial read.
struct SQLiteProbe: DatabaseProbe {
    let reader: any DatabaseReader

    func ping() async throws {
        _ = try await reader.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
    }
}

extension PostgresServiceDatabase: DatabaseProbe {}

/// What every service's store (`IdentityStore`, `HouseholdStore`...) offers the chassis besides its own operations,
/// whichever database it keeps its data in.
public protocol ServiceStore: Sendable {
    /// What the readiness probe asks.
    var probe: any DatabaseProbe { get }
    /// What must run beside the server for the store to work (a PostgreSQL pool, its listeners); none for SQLite.
    var services: [any Service] { get }
    /// The service's outbox of notices for the notifications service, in the same database; `nil` without one.
    var outbox: (any OutboxStorage)? { get }
}

extension ServiceStore {
    public var outbox: (any OutboxStorage)? { nil }
}

extension ServiceDatabase: DatabaseProbe {
    public func ping() async throws { try await SQLiteProbe(reader: writer).ping() }
}
