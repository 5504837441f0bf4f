import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHouseholdStore {
    /// The household, its members, its chores (soonest due first) and the household's revision, in one read.
    func chores(of householdID: String, asMember userID: String) async throws -> (
        HouseholdRecord, [MemberRecord], [ChoreRecord], revision: Int64
    ) {
        try await read { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let chores = try ChoreRecord.fetchAll(
                db.cachedStatement(
                    sql: "SELECT * FROM chores WHERE household_id = ? ORDER BY next_due IS NULL, next_due, name"),
                arguments: [householdID])
            let revision = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT revision FROM households WHERE id = ?"), arguments: [householdID])
            return (household, members, chores, revision ?? 0)
        }
    }

    /// The revision of a household the caller belongs to (404 for anyone else) and its time zone, in one statement:
    /// a kept chore list is answered after this read alone. Triggers bump the revision on every change to the
    /// household's chores, its members or its time zone (`HouseholdMigrations`, v7).
    func choreListRevision(of householdID: String, asMember userID: String) async throws -> (
        revision: Int64, timeZone: String
    ) {
        try await read { db in
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(
                        sql: """
                            SELECT h.revision, h.time_zone FROM households h
                            JOIN members m ON m.household_id = h.id AND m.user_id = ?
                            WHERE h.id = ?
                            """), arguments: [userID, householdID])
            else { throw HouseholdError.notFound("The household") }
            return (try row.decode(atIndex: 0), try row.decode(atIndex: 1))
        }
    }

    /// The household's custom chores, kept for reuse.
    func customChores(of householdID: String, asMember userID: String) async throws -> [(name: String, points: Int)] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            return try Row.fetchAll(
                db.cachedStatement(sql: "SELECT name, points FROM custom_chores WHERE household_id = ? ORDER BY name"),
                arguments: [householdID]
            ).map { ($0["name"], $0["points"]) }
        }
    }

    /// Adds the chore `make` builds from the members (in joining order) and today in the household's zone; a
    /// name that is not in the catalogue is kept as a custom chore for reuse. Returns what `make` was given.
    func createChore(
        in householdID: String, by userID: String, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreSaved>>?,
        _ make: @Sendable (_ members: [String], _ today: LocalDay) throws -> ChoreRecord
    ) async throws -> ChoreSaved {
        try await write(reporting: notices) { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let (memberIDs, today) = (members.map(\.userId), clock.today(inZone: household.timeZone))
            let chore = try make(memberIDs, today)
            try chore.insert(db)
            if !ChoreCatalogue.isPredefined(chore.name) {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO custom_chores (household_id, name, points) VALUES (?, ?, ?)",
                    arguments: [chore.householdId, chore.name, chore.points])
            }
            try Self.record(
                db, chore.householdId, "chore_added", userID, "added the chore \(chore.name)", chore.createdAt)
            return HouseholdChange(value: (chore, memberIDs, today), members: memberIDs)
        }.value
    }

    /// Applies an edit to a chore of the caller's household, given the members and today in its zone.
    func updateChore(
        _ choreID: String, in householdID: String, by userID: String, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreSaved>>?,
        _ change: @Sendable (inout ChoreRecord, _ members: [String], _ today: LocalDay) throws -> Void
    ) async throws -> ChoreSaved {
        try await write(reporting: notices) { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let (memberIDs, today) = (members.map(\.userId), clock.today(inZone: household.timeZone))
            var chore = try Self.chore(db, choreID, householdID)
            try change(&chore, memberIDs, today)
            try chore.update(db)
            return HouseholdChange(value: (chore, memberIDs, today), members: memberIDs)
        }.value
    }

    /// The household's chore `choreID`; 404 when there is none.
    private static func chore(_ db: Database, _ choreID: String, _ householdID: String) throws -> ChoreRecord {
        guard let chore = try ChoreRecord.fetchOne(db, key: choreID), chore.householdId == householdID else {
            throw HouseholdError.notFound("The chore")
        }
        return chore
    }

    func deleteChore(
        _ choreID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<ChoreRecord>>?
    ) async throws {
        _ = try await write(reporting: notices) { db in
            let members = try Self.members(db, householdID, asMember: userID)
            let chore = try Self.chore(db, choreID, householdID)
            try chore.delete(db)
            try Self.record(db, householdID, "chore_deleted", userID, "deleted the chore \(chore.name)", now)
            return HouseholdChange(value: chore, members: members.map(\.userId))
        }
    }

    /// Records a completion and schedules the next occurrence: from the completion day when it is late,
    /// to the member the chore's assignment picks. The day is today in the household's zone. Returns the
    /// completion, the chore as it now stands, the members and that day.
    func complete(
        _ choreID: String, in householdID: String, by userID: String, note: String?, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreCompleted>>?
    ) async throws -> ChoreCompleted {
        try await write(reporting: notices) { db in
            let (household, memberRecords) = try Self.household(db, householdID, asMember: userID)
            let (members, today, now) = (
                memberRecords.map(\.userId), clock.today(inZone: household.timeZone), clock.now
            )
            var chore = try Self.chore(db, choreID, householdID)
            guard let dueText = chore.nextDue, let due = LocalDay(dueText) else {
                throw HouseholdError.choreDone
            }
            let completion = CompletionRecord(
                id: UUID().uuidString.lowercased(), householdId: householdID, choreId: chore.id, choreName: chore.name,
                userId: userID, points: chore.points, dueOn: dueText, completedOn: today.description, completedAt: now,
                note: note)
            try completion.insert(db)
            let since = today.adding(days: -ChoreRules.fairnessWindowDays).description
            let recentPoints = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user_id, SUM(points) AS points FROM completions
                        WHERE household_id = ? AND completed_on > ? GROUP BY user_id
                        """), arguments: [householdID, since]
            ).reduce(into: [String: Int]()) { $0[$1["user_id"]] = $1["points"] }
            chore.nextDue = chore.schedule.nextDue(afterDue: due, completedOn: today)?.description
            chore.assigneeId =
                chore.nextDue == nil
                ? nil
                : chore.assignment.next(
                    members: members, current: chore.assigneeId ?? userID, recentPoints: recentPoints)
            try chore.update(db)
            try Self.record(db, householdID, "chore_completed", userID, "completed \(chore.name)", now)
            return HouseholdChange(value: (completion, chore, members, today), members: members)
        }.value
    }

    /// Completion history, newest first (by day, then the instant it was recorded, then id, so two completions of
    /// one day keep their order from page to page), filtered, after `cursor` (completedOn, completedAt, id).
    func completions(
        of householdID: String, asMember userID: String, member: String?, choreID: String?, from: LocalDay?,
        to: LocalDay?, after cursor: (day: String, completedAt: Date, id: String)?, limit: Int
    ) async throws -> [CompletionRecord] {
        try await read { db in
            _ = try Self.members(db, householdID, asMember: userID)
            var request = CompletionRecord.filter(CompletionRecord.Columns.householdId == householdID)
            if let member { request = request.filter(CompletionRecord.Columns.userId == member) }
            if let choreID { request = request.filter(CompletionRecord.Columns.choreId == choreID) }
            if let from { request = request.filter(CompletionRecord.Columns.completedOn >= from.description) }
            if let to { request = request.filter(CompletionRecord.Columns.completedOn <= to.description) }
            if let cursor {
                request = request.filter(
                    sql: "(completed_on, completed_at, id) < (?, ?, ?)",
                    arguments: [cursor.day, cursor.completedAt, cursor.id])
            }
            return try request.order(
                CompletionRecord.Columns.completedOn.desc, CompletionRecord.Columns.completedAt.desc,
                CompletionRecord.Columns.id.desc
            ).limit(limit).fetchAll(db)
        }
    }

    /// Counts and points per member and chore over `from ... to` (by default the 30 days up to today in the
    /// household's zone), with the members, in one read.
    func statistics(
        of householdID: String, asMember userID: String, from: LocalDay?, to: LocalDay?, clock: WallClock
    ) async throws -> (members: [MemberRecord], from: LocalDay, to: LocalDay, rows: [ChoreTally]) {
        try await read { db in
            let (household, members) = try Self.household(db, householdID, asMember: userID)
            let (from, to) = try StatisticsRange.of(from: from, to: to, today: clock.today(inZone: household.timeZone))
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT user_id, chore_name, COUNT(*) AS count, SUM(points) AS points FROM completions
                        WHERE household_id = ? AND completed_on >= ? AND completed_on <= ?
                        GROUP BY user_id, chore_name ORDER BY user_id, chore_name
                        """), arguments: [householdID, from.description, to.description]
            ).map {
                ChoreTally(userID: $0["user_id"], chore: $0["chore_name"], count: $0["count"], points: $0["points"])
            }
            return (members, from, to, rows)
        }
    }
}
