import Foundation
import Logging
import PostgresNIO
import ServiceKit
import TestSupport

@testable import SocialService

/// Runs `body` with `replicas` stores on one fresh database of `kind`, all running: on PostgreSQL each its own pool, as
/// each replica of the service has; on SQLite one store (one process owns the file).
func withSocialStores<T: Sendable>(
    _ kind: StoreKind, replicas: Int = 1, _ body: ([any SocialStore]) async throws -> T
) async throws -> T {
    let location = try await kind.freshLocation()
    var stores: [any SocialStore] = []
    for _ in 0..<(kind == .sqlite ? 1 : replicas) {
        stores.append(try await openSocialStore(location, logger: Logger(label: "test.social")))
    }
    let all = stores
    func running(_ index: Int) async throws -> T {
        guard index < all.count else { return try await body((0..<replicas).map { all[$0 % all.count] }) }
        return try await withRunning(all[index]) { try await running(index + 1) }
    }
    return try await running(0)
}

/// Makes each pair friends in one transaction, without the requests the API goes through (fixtures of many).
func insertFriendships(_ pairs: [(String, String)], at now: Date, into store: any SocialStore) async throws {
    let ordered = pairs.map { friendshipPair($0.0, $0.1) }
    switch store {
    case let sqlite as SQLiteSocialStore:
        try await sqlite.write { db in
            for (low, high) in ordered {
                try db.execute(
                    sql: "INSERT INTO friendships (user_low, user_high, created_at) VALUES (?, ?, ?)",
                    arguments: [low, high, now])
            }
        }
    case let postgres as PostgresSocialStore:
        let (lows, highs) = (ordered.map(\.low), ordered.map(\.high))
        _ = try await postgres.write { db in
            try await db.execute(
                """
                INSERT INTO friendships (user_low, user_high, created_at)
                SELECT low, high, \(now.millisecondsSince1970) FROM unnest(\(lows), \(highs)) AS pair(low, high)
                """)
        }
    default:
        fatalError("a store of neither engine")
    }
}

/// How many relationship changes the store keeps.
func keptChanges(_ store: any SocialStore) async throws -> Int {
    switch store {
    case let sqlite as SQLiteSocialStore:
        try await sqlite.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM relationship_changes") ?? 0 }
    case let postgres as PostgresSocialStore:
        try await postgres.read { db in
            Int(try await db.value("SELECT count(*) FROM relationship_changes", as: Int64.self) ?? 0)
        }
    default:
        fatalError("a store of neither engine")
    }
}
