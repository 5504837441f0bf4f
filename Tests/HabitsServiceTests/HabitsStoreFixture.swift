import Foundation
import Logging
import PostgresNIO
import ServiceKit
import TestSupport

@testable import HabitsService

/// Runs `body` with `replicas` stores on one fresh database of `kind`, all running: on PostgreSQL each its own pool, as
/// each replica of the service has; on SQLite one store (one process owns the file).
func withHabitsStores<T: Sendable>(
    _ kind: StoreKind, replicas: Int = 1, _ body: ([any HabitsStore]) async throws -> T
) async throws -> T {
    let location = try await kind.freshLocation()
    var stores: [any HabitsStore] = []
    for _ in 0..<(kind == .sqlite ? 1 : replicas) {
        stores.append(try await openHabitsStore(location, logger: Logger(label: "test.habits")))
    }
    let all = stores
    func running(_ index: Int) async throws -> T {
        guard index < all.count else { return try await body((0..<replicas).map { all[$0 % all.count] }) }
        return try await withRunning(all[index]) { try await running(index + 1) }
    }
    return try await running(0)
}

/// Stores an event as it is, on any day (even one the rules would refuse): fixtures of many days; returns its id.
func insertEvent(
    _ store: any HabitsStore, habit: String, owner: String, day: String, comment: String? = nil, at created: Date
) async throws -> Int64 {
    switch store {
    case let sqlite as SQLiteHabitsStore:
        return try await sqlite.write { db in
            try db.execute(
                sql: """
                    INSERT INTO events (habit_id, user_id, day, comment, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [habit, owner, day, comment, created, created])
            return db.lastInsertedRowID
        }
    case let postgres as PostgresHabitsStore:
        let at = created.millisecondsSince1970
        return try await postgres.write { db in
            try await db.value(
                """
                INSERT INTO events (habit_id, user_id, day, comment, created_at, updated_at)
                VALUES (\(habit), \(owner), \(day), \(comment), \(at), \(at)) RETURNING id
                """, as: Int64.self) ?? 0
        }
    default:
        fatalError("a store of neither engine")
    }
}
