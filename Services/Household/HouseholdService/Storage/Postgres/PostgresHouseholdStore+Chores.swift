import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHouseholdStore {
    func chores(of householdID: String, asMember userID: String) async throws -> (
        HouseholdRecord, [MemberRecord], [ChoreRecord], revision: Int64
    ) {
        // One transaction, so that the chores and the revision are read at one instant (a kept list must never be
        // filed under a revision newer than what it shows).
        try await write(.repeatableRead) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let chores = try await db.namedRows(
                """
                SELECT * FROM chores WHERE household_id = \(householdID)
                ORDER BY next_due IS NULL, next_due, name
                """
            ).map(ChoreRecord.init)
            let revision =
                try await db.namedRow("SELECT revision FROM households WHERE id = \(householdID)")?.get(
                    "revision", as: Int64.self) ?? 0
            return (household, members, chores, revision)
        }
    }

    func choreListRevision(of householdID: String, asMember userID: String) async throws -> (
        revision: Int64, timeZone: String
    ) {
        // Asked before every chore list (a kept list answers if it is still current): batched and prepared. A NUL
        // cannot be bound, and would fail the statement it shares with other requests: such an id matches nothing.
        guard !Self.holdsNUL(householdID), !Self.holdsNUL(userID),
            let row = try await choreListRevisions.value(for: ChoreListKey(householdID: householdID, userID: userID))
        else { throw HouseholdError.notFound("The household") }
        return row
    }

    /// Whose chore list's revision is asked.
    struct ChoreListKey: Hashable, Sendable {
        var householdID: String
        var userID: String
    }

    /// Members' households' revisions and time zones: one statement for all the keys, each answered by its place in
    /// the list.
    struct ChoreListRevisions: PositionalLookup {
        static let sql = """
            SELECT k.n, h.revision, h.time_zone
            FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(household, member, n)
            JOIN households h ON h.id = k.household
            JOIN members m ON m.household_id = h.id AND m.user_id = k.member
            """
        typealias Answer = (revision: Int64, timeZone: String)
        let keys: [ChoreListKey]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(keys.map(\.householdID))
            bindings.append(keys.map(\.userID))
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (place: Int64, answer: (revision: Int64, timeZone: String)) {
            let (place, revision, timeZone) = try row.decode((Int64, Int64, String).self)
            return (place, (revision, timeZone))
        }
    }

    func customChores(of householdID: String, asMember userID: String) async throws -> [(name: String, points: Int)] {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            // SQLite orders its NOCASE column ignoring ASCII case, then by the bytes.
            return try await db.namedRows(
                """
                SELECT name, points FROM custom_chores WHERE household_id = \(householdID)
                ORDER BY ascii_lower(name) COLLATE "C", name
                """
            ).map { (try $0.get("name"), try $0.get("points")) }
        }
    }

    func createChore(
        in householdID: String, by userID: String, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreSaved>>?,
        _ make: @Sendable (_ members: [String], _ today: LocalDay) throws -> ChoreRecord
    ) async throws -> ChoreSaved {
        try await write(locking: householdID, reporting: notices) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let (memberIDs, today) = (members.map(\.userId), clock.today(inZone: household.timeZone))
            let chore = try make(memberIDs, today)
            try await db.insert(chore)
            if !ChoreCatalogue.isPredefined(chore.name) {
                try await db.execute(
                    """
                    INSERT INTO custom_chores (household_id, name, points)
                    VALUES (\(chore.householdId), \(chore.name), \(chore.points)) ON CONFLICT DO NOTHING
                    """)
            }
            try await db.record(
                chore.householdId, "chore_added", userID, "added the chore \(chore.name)", chore.createdAt)
            return HouseholdChange(value: (chore, memberIDs, today), members: memberIDs)
        }.value
    }

    func updateChore(
        _ choreID: String, in householdID: String, by userID: String, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreSaved>>?,
        _ change: @Sendable (inout ChoreRecord, _ members: [String], _ today: LocalDay) throws -> Void
    ) async throws -> ChoreSaved {
        try await write(locking: householdID, reporting: notices) { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let (memberIDs, today) = (members.map(\.userId), clock.today(inZone: household.timeZone))
            var chore = try await db.chore(choreID, householdID)
            try change(&chore, memberIDs, today)
            try await db.update(chore)
            return HouseholdChange(value: (chore, memberIDs, today), members: memberIDs)
        }.value
    }

    func deleteChore(
        _ choreID: String, in householdID: String, by userID: String, now: Date,
        notices: ChangeNotices<HouseholdChange<ChoreRecord>>?
    ) async throws {
        _ = try await write(locking: householdID, reporting: notices) { db in
            let members = try await db.members(householdID, asMember: userID)
            let chore = try await db.chore(choreID, householdID)
            try await db.execute("DELETE FROM chores WHERE id = \(chore.id)")
            try await db.record(householdID, "chore_deleted", userID, "deleted the chore \(chore.name)", now)
            return HouseholdChange(value: chore, members: members.map(\.userId))
        }
    }

    func complete(
        _ choreID: String, in householdID: String, by userID: String, note: String?, clock: WallClock,
        notices: ChangeNotices<HouseholdChange<ChoreCompleted>>?
    ) async throws -> ChoreCompleted {
        try await write(locking: householdID, reporting: notices) { db in
            let (household, memberRecords) = try await db.household(householdID, asMember: userID)
            let (members, today, now) = (
                memberRecords.map(\.userId), clock.today(inZone: household.timeZone), clock.now
            )
            var chore = try await db.chore(choreID, householdID)
            guard let dueText = chore.nextDue, let due = LocalDay(dueText) else {
                throw HouseholdError.choreDone
            }
            let completion = CompletionRecord(
                id: UUID().uuidString.lowercased(), householdId: householdID, choreId: chore.id, choreName: chore.name,
                userId: userID, points: chore.points, dueOn: dueText, completedOn: today.description, completedAt: now,
                note: note)
            try await db.execute(
                """
                INSERT INTO completions
                    (id, household_id, chore_id, chore_name, user_id, points, due_on, completed_on, completed_at, note)
                VALUES (\(completion.id), \(completion.householdId), \(completion.choreId), \(completion.choreName),
                    \(completion.userId), \(completion.points), \(completion.dueOn), \(completion.completedOn),
                    \(completion.completedAt.storedMilliseconds), \(completion.note))
                """)
            let since = today.adding(days: -ChoreRules.fairnessWindowDays).description
            var recentPoints: [String: Int] = [:]
            for row in try await db.namedRows(
                """
                SELECT user_id, SUM(points)::bigint AS points FROM completions
                WHERE household_id = \(householdID) AND completed_on > \(since) GROUP BY user_id
                """)
            {
                recentPoints[try row.get("user_id")] = try row.get("points")
            }
            chore.nextDue = chore.schedule.nextDue(afterDue: due, completedOn: today)?.description
            chore.assigneeId =
                chore.nextDue == nil
                ? nil
                : chore.assignment.next(
                    members: members, current: chore.assigneeId ?? userID, recentPoints: recentPoints)
            try await db.update(chore)
            try await db.record(householdID, "chore_completed", userID, "completed \(chore.name)", now)
            return HouseholdChange(value: (completion, chore, members, today), members: members)
        }.value
    }

    func completions(
        of householdID: String, asMember userID: String, member: String?, choreID: String?, from: LocalDay?,
        to: LocalDay?, after cursor: (day: String, completedAt: Date, id: String)?, limit: Int
    ) async throws -> [CompletionRecord] {
        try await read { db in
            _ = try await db.members(householdID, asMember: userID)
            // PostgreSQL text holds no NUL, so no stored id matches one (SQLite finds none either).
            guard !Self.holdsNUL(member), !Self.holdsNUL(choreID) else { return [] }
            // A filter left out binds NULL and matches every row.
            return try await db.namedRows(
                """
                SELECT * FROM completions WHERE household_id = \(householdID)
                AND (\(member)::text IS NULL OR user_id = \(member))
                AND (\(choreID)::text IS NULL OR chore_id = \(choreID))
                AND (\(from?.description)::text IS NULL OR completed_on >= \(from?.description))
                AND (\(to?.description)::text IS NULL OR completed_on <= \(to?.description))
                AND (\(cursor?.day)::text IS NULL
                    OR (completed_on, completed_at, id) < (\(cursor?.day), \(cursor?.completedAt.storedMilliseconds),
                        \(cursor?.id)))
                ORDER BY completed_on DESC, completed_at DESC, id DESC LIMIT \(limit)
                """
            ).map(CompletionRecord.init)
        }
    }

    func statistics(
        of householdID: String, asMember userID: String, from: LocalDay?, to: LocalDay?, clock: WallClock
    ) async throws -> (members: [MemberRecord], from: LocalDay, to: LocalDay, rows: [ChoreTally]) {
        try await read { db in
            let (household, members) = try await db.household(householdID, asMember: userID)
            let (from, to) = try StatisticsRange.of(from: from, to: to, today: clock.today(inZone: household.timeZone))
            let rows = try await db.namedRows(
                """
                SELECT user_id, chore_name, COUNT(*) AS count, SUM(points)::bigint AS points FROM completions
                WHERE household_id = \(householdID) AND completed_on >= \(from.description)
                    AND completed_on <= \(to.description)
                GROUP BY user_id, chore_name ORDER BY user_id, chore_name
                """
            ).map {
                ChoreTally(
                    userID: try $0.get("user_id"), chore: try $0.get("chore_name"), count: try $0.get("count"),
                    points: try $0.get("points"))
            }
            return (members, from, to, rows)
        }
    }
}

extension PostgresSession {
    /// The household's chore `choreID`; 404 when there is none.
    func chore(_ choreID: String, _ householdID: String) async throws -> ChoreRecord {
        guard
            let row = try await namedRow("SELECT * FROM chores WHERE id = \(choreID) AND household_id = \(householdID)")
        else { throw HouseholdError.notFound("The chore") }
        return try ChoreRecord(row)
    }

    func insert(_ chore: ChoreRecord) async throws {
        try await execute(
            """
            INSERT INTO chores (id, household_id, name, points, schedule_kind, schedule_every, schedule_weekdays,
                schedule_day, assignment_kind, assignment_fixed, assignment_order, assignee_id, next_due, created_at)
            VALUES (\(chore.id), \(chore.householdId), \(chore.name), \(chore.points), \(chore.scheduleKind),
                \(chore.scheduleEvery), \(chore.scheduleWeekdays), \(chore.scheduleDay), \(chore.assignmentKind),
                \(chore.assignmentFixed), \(chore.assignmentOrder), \(chore.assigneeId), \(chore.nextDue),
                \(chore.createdAt.storedMilliseconds))
            """)
    }

    func update(_ chore: ChoreRecord) async throws {
        try await execute(
            """
            UPDATE chores SET household_id = \(chore.householdId), name = \(chore.name), points = \(chore.points),
                schedule_kind = \(chore.scheduleKind), schedule_every = \(chore.scheduleEvery),
                schedule_weekdays = \(chore.scheduleWeekdays), schedule_day = \(chore.scheduleDay),
                assignment_kind = \(chore.assignmentKind), assignment_fixed = \(chore.assignmentFixed),
                assignment_order = \(chore.assignmentOrder), assignee_id = \(chore.assigneeId),
                next_due = \(chore.nextDue), created_at = \(chore.createdAt.storedMilliseconds)
            WHERE id = \(chore.id)
            """)
    }
}
