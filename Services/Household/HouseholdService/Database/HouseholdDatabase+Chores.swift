import Foundation
import GRDB
import PlatformKit

extension HouseholdDatabase {
    /// Days over which "whoever did least" weighs points.
    static let fairnessWindowDays = 30

    /// The household, its members and its chores (soonest due first), in one read.
    func chores(of householdID: String, asMember userID: String) async throws -> (HouseholdRow, [MemberRow], [ChoreRow])
    {
        try await writer.read { db in
            let members = try Self.members(db, householdID, asMember: userID)
            guard let household = try HouseholdRow.fetchOne(db, key: householdID) else {
                throw Problem.notFound("The household")
            }
            let chores = try ChoreRow.fetchAll(
                db, sql: "SELECT * FROM chores WHERE household_id = ? ORDER BY next_due IS NULL, next_due, name",
                arguments: [householdID])
            return (household, members, chores)
        }
    }

    /// The household's custom chores, kept for reuse.
    func customChores(of householdID: String, asMember userID: String) async throws -> [(name: String, points: Int)] {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Row.fetchAll(
                db, sql: "SELECT name, points FROM custom_chores WHERE household_id = ? ORDER BY name",
                arguments: [householdID]
            ).map { ($0["name"], $0["points"]) }
        }
    }

    /// Adds a chore; a name that is not in the catalogue is kept as a custom chore for reuse.
    func createChore(_ chore: ChoreRow, by userID: String, isCustom: Bool) async throws {
        try await writer.write { db in
            _ = try Self.members(db, chore.householdId, asMember: userID)
            try chore.insert(db)
            if isCustom {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO custom_chores (household_id, name, points) VALUES (?, ?, ?)",
                    arguments: [chore.householdId, chore.name, chore.points])
            }
            try Self.record(
                db, chore.householdId, "chore_added", userID, "added the chore \(chore.name)", chore.createdAt)
        }
    }

    /// Applies an edit to a chore of the caller's household.
    func updateChore(
        _ choreID: String, in householdID: String, by userID: String,
        _ change: @Sendable (inout ChoreRow, [String]) throws -> Void
    ) async throws -> ChoreRow {
        try await writer.write { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            guard var chore = try ChoreRow.fetchOne(db, key: choreID), chore.householdId == householdID else {
                throw Problem.notFound("The chore")
            }
            try change(&chore, members)
            try chore.update(db)
            return chore
        }
    }

    func deleteChore(_ choreID: String, in householdID: String, by userID: String, now: Date) async throws {
        try await writer.write { db in
            _ = try Self.members(db, householdID, asMember: userID)
            guard let chore = try ChoreRow.fetchOne(db, key: choreID), chore.householdId == householdID else {
                throw Problem.notFound("The chore")
            }
            try chore.delete(db)
            try Self.record(db, householdID, "chore_deleted", userID, "deleted the chore \(chore.name)", now)
        }
    }

    /// Records a completion and schedules the next occurrence: from the completion day when it is late,
    /// to the member the chore's assignment picks. Returns the completion and the chore as it now stands.
    func complete(
        _ choreID: String, in householdID: String, by userID: String, note: String?, today: LocalDate, now: Date
    ) async throws -> (CompletionRow, ChoreRow) {
        try await writer.write { db in
            let members = try Self.members(db, householdID, asMember: userID).map(\.userId)
            guard var chore = try ChoreRow.fetchOne(db, key: choreID), chore.householdId == householdID else {
                throw Problem.notFound("The chore")
            }
            guard let dueText = chore.nextDue, let due = LocalDate(dueText) else {
                throw Problem.conflict("chore_done", "This one-off chore was already completed.")
            }
            let completion = CompletionRow(
                id: UUID().uuidString.lowercased(), householdId: householdID, choreId: chore.id, choreName: chore.name,
                userId: userID, points: chore.points, dueOn: dueText, completedOn: today.description, completedAt: now,
                note: note)
            try completion.insert(db)
            let since = today.adding(days: -Self.fairnessWindowDays).description
            let recentPoints = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, SUM(points) AS points FROM completions
                    WHERE household_id = ? AND completed_on > ? GROUP BY user_id
                    """,
                arguments: [householdID, since]
            ).reduce(into: [String: Int]()) { $0[$1["user_id"]] = $1["points"] }
            chore.nextDue = chore.schedule.nextDue(afterDue: due, completedOn: today)?.description
            chore.assigneeId =
                chore.nextDue == nil
                ? nil
                : chore.assignment.next(
                    members: members, current: chore.assigneeId ?? userID, recentPoints: recentPoints)
            try chore.update(db)
            try Self.record(db, householdID, "chore_completed", userID, "completed \(chore.name)", now)
            return (completion, chore)
        }
    }

    /// Completion history, newest first, filtered, after `cursor` (completedOn, id).
    func completions(
        of householdID: String, asMember userID: String, member: String?, choreID: String?, from: LocalDate?,
        to: LocalDate?, after cursor: [String]?, limit: Int
    ) async throws -> [CompletionRow] {
        try await writer.read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            var request = CompletionRow.filter(Column("household_id") == householdID)
            if let member { request = request.filter(Column("user_id") == member) }
            if let choreID { request = request.filter(Column("chore_id") == choreID) }
            if let from { request = request.filter(Column("completed_on") >= from.description) }
            if let to { request = request.filter(Column("completed_on") <= to.description) }
            if let cursor, cursor.count == 2 {
                request = request.filter(
                    sql: "(completed_on, id) < (?, ?)", arguments: [cursor[0], cursor[1]])
            }
            return try request.order(Column("completed_on").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// Counts and points per member and chore over the range of days `range` picks for the household
    /// (its time zone decides what "today" is), with the members, in one read.
    func statistics(
        of householdID: String, asMember userID: String,
        range: @Sendable (HouseholdRow) throws -> (from: LocalDate, to: LocalDate)
    ) async throws -> (members: [MemberRow], from: LocalDate, to: LocalDate, rows: [ChoreTally]) {
        try await writer.read { db in
            let members = try Self.members(db, householdID, asMember: userID)
            guard let household = try HouseholdRow.fetchOne(db, key: householdID) else {
                throw Problem.notFound("The household")
            }
            let (from, to) = try range(household)
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT user_id, chore_name, COUNT(*) AS count, SUM(points) AS points FROM completions
                    WHERE household_id = ? AND completed_on >= ? AND completed_on <= ?
                    GROUP BY user_id, chore_name ORDER BY user_id, chore_name
                    """,
                arguments: [householdID, from.description, to.description]
            ).map {
                ChoreTally(userID: $0["user_id"], chore: $0["chore_name"], count: $0["count"], points: $0["points"])
            }
            return (members, from, to, rows)
        }
    }
}

/// One member's completions of one chore over a range.
struct ChoreTally: Sendable {
    var userID: String
    var chore: String
    var count: Int
    var points: Int
}
