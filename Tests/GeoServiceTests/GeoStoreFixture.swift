import Foundation
import GRDB
import Logging
import PostgresNIO
import ServiceKit
import TestSupport
import Testing

@testable import GeoService

/// Runs `body` with `replicas` stores on one fresh database of `kind`, all running: on PostgreSQL each its own pool,
/// as each replica of the service has; on SQLite one store (one process owns the file).
func withGeoStores<T: Sendable>(
    _ kind: StoreKind, replicas: Int = 1, gazetteer: URL? = nil, _ body: ([any GeoStore]) async throws -> T
) async throws -> T {
    let location = try await kind.freshLocation()
    var stores: [any GeoStore] = []
    for _ in 0..<(kind == .sqlite ? 1 : replicas) {
        stores.append(try await openGeoStore(location, gazetteer: gazetteer, logger: Logger(label: "test.geo")))
    }
    let all = stores
    func running(_ index: Int) async throws -> T {
        guard index < all.count else { return try await body((0..<replicas).map { all[$0 % all.count] }) }
        return try await withRunning(all[index]) { try await running(index + 1) }
    }
    return try await running(0)
}

/// Runs `body` with one running store on a fresh database of `kind`.
func withGeoStore<T: Sendable>(
    _ kind: StoreKind, gazetteer: URL? = nil, _ body: (any GeoStore) async throws -> T
) async throws -> T {
    try await withGeoStores(kind, gazetteer: gazetteer) { try await body($0[0]) }
}

/// Raw SQL for the tests that reach past the store (`sqlite` or `postgres`, whichever the store speaks; literal
/// values only).
enum RawSQL {
    static func execute(_ store: any GeoStore, sqlite: String, postgres: String) async throws {
        switch store {
        case let store as SQLiteGeoStore:
            try await store.write { db in try db.execute(sql: sqlite) }
        case let store as PostgresGeoStore:
            try await store.write { session in try await session.execute(PostgresQuery(unsafeSQL: postgres)) }
        default:
            Issue.record("unknown store \(Swift.type(of: store))")
        }
    }

    static func execute(_ store: any GeoStore, _ sql: String) async throws {
        try await execute(store, sqlite: sql, postgres: sql)
    }

    /// The first column of every row of `sql`.
    static func column<T: DatabaseValueConvertible & PostgresDecodable & Sendable>(
        _ store: any GeoStore, _ sql: String, as type: T.Type = T.self
    ) async throws -> [T] {
        switch store {
        case let store as SQLiteGeoStore:
            return try await store.read { db in try T.fetchAll(db, sql: sql) }
        case let store as PostgresGeoStore:
            return try await store.read { session in
                try await session.rows(PostgresQuery(unsafeSQL: sql)).map { try $0.decode(T.self) }
            }
        default:
            Issue.record("unknown store \(Swift.type(of: store))")
            return []
        }
    }

    static func count(_ store: any GeoStore, _ table: String) async throws -> Int {
        try await column(store, "SELECT count(*) FROM \(table)", as: Int.self).first ?? -1
    }
}
