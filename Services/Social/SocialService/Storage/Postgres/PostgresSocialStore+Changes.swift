import Foundation
import PostgresNIO
import ServiceKit
import ServiceLifecycle

// The relationship-change feed: who changed, for the services that keep a copy of the graph (geo's map).
extension PostgresSocialStore {
    /// Rings `bell` when any replica commits a relationship change: the triggers notify ``changesChannel`` at
    /// commit, and every replica listens. A listener that lost its connection rings too (`nil`): polls then read
    /// the table again, which is all they ever trust.
    func ringOnRelationshipChanges(_ bell: ChangeBell) -> (any Service)? {
        PostgresChangeListener(database: database, channel: Self.changesChannel) { _ in bell.ring() }
    }

    func relationshipChanges(after sequence: Int64?, limit: Int) async throws -> RelationshipChangePage {
        // One snapshot: the counter and the rows agree. Sequences are handed out in commit order (the counter's
        // row lock), so every change at or below the counter a snapshot sees is in it: none can commit later.
        try await snapshot { db in
            let highest = try await db.value("SELECT last FROM relationship_change_counter", as: Int64.self) ?? 0
            guard let sequence else { return RelationshipChangePage(users: [], last: highest, reset: false) }
            let oldest =
                try await db.value("SELECT min(sequence) FROM relationship_changes", as: Int64?.self).flatMap { $0 }
                ?? highest + 1
            // Changes pruned since, or a sequence this store never reached (it was replaced): start again.
            guard sequence >= oldest - 1, sequence <= highest else {
                return RelationshipChangePage(users: [], last: highest, reset: true)
            }
            let rows = try await db.rows(
                """
                SELECT sequence, user_id FROM relationship_changes WHERE sequence > \(sequence)
                ORDER BY sequence LIMIT \(limit)
                """
            ).map { try $0.decode((Int64, String).self) }
            var seen = Set<String>()
            let users = rows.map(\.1).filter { seen.insert($0).inserted }
            // A limited page ends at its last entry, so the next poll continues from there.
            let last = rows.count == limit ? rows.last?.0 ?? highest : highest
            return RelationshipChangePage(users: users, last: last, reset: false)
        }
    }
}
