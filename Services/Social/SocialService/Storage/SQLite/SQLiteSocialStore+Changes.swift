import GRDB
import ServiceKit
import ServiceLifecycle
import Synchronization

// The relationship-change feed: who changed, for the services that keep a copy of the graph (geo's map).
extension SQLiteSocialStore {
    /// Rings `bell` after every transaction that changed a friendship or a block commits (the v2 triggers record the
    /// users in it), so the feed's long polls answer at once. One process writes SQLite: nothing else to run.
    func ringOnRelationshipChanges(_ bell: ChangeBell) -> (any Service)? {
        writer.add(transactionObserver: RelationshipChangeObserver(bell: bell), extent: .databaseLifetime)
        return nil
    }

    /// The users whose friends or blocks changed after `sequence`, each once, at most `limit` changes; with
    /// `sequence` nil, none (a reader starting afresh keeps nothing yet), just the sequence to ask after.
    func relationshipChanges(after sequence: Int64?, limit: Int) async throws -> RelationshipChangePage {
        try await read { db in
            let highest =
                try Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT seq FROM sqlite_sequence WHERE name = 'relationship_changes'"))
                ?? 0
            guard let sequence else { return RelationshipChangePage(users: [], last: highest, reset: false) }
            let oldest =
                try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(sequence) FROM relationship_changes"))
                ?? highest + 1
            // Changes pruned since, or a sequence this store never reached (it was replaced): start again.
            guard sequence >= oldest - 1, sequence <= highest else {
                return RelationshipChangePage(users: [], last: highest, reset: true)
            }
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql:
                        "SELECT sequence, user_id FROM relationship_changes WHERE sequence > ? ORDER BY sequence LIMIT ?"
                ), arguments: [sequence, limit])
            var seen = Set<String>()
            let users = rows.map { $0[1] as String }.filter { seen.insert($0).inserted }
            // A limited page ends at its last entry, so the next poll continues from there.
            let last = rows.count == limit ? rows.last.map { $0[0] as Int64 } ?? highest : highest
            return RelationshipChangePage(users: users, last: last, reset: false)
        }
    }
}

/// Notes a recorded relationship change and rings once the transaction commits (never on rollback).
private final class RelationshipChangeObserver: TransactionObserver {
    private let bell: ChangeBell
    /// Only touched on the writer's queue, one transaction at a time; a lock keeps the compiler's word on it.
    private let changed = Mutex(false)

    init(bell: ChangeBell) {
        self.bell = bell
    }

    /// The rows the v2 triggers add, not the friendships and blocks themselves: those are `WITHOUT ROWID` tables,
    /// whose changes SQLite reports to no observer.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        if case .insert(tableName: "relationship_changes") = eventKind { return true }
        return false
    }

    func databaseDidChange(with event: DatabaseEvent) {
        changed.withLock { $0 = true }
    }

    func databaseDidCommit(_ db: Database) {
        if changed.withLock({ changed in
            defer { changed = false }; return changed
        }) {
            bell.ring()
        }
    }

    func databaseDidRollback(_ db: Database) {
        changed.withLock { $0 = false }
    }
}
