import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHabitsStore {
    // MARK: Habits

    func createHabit(_ habit: HabitRecord) async throws {
        try await write { db in try habit.insert(db) }
    }

    func habit(_ id: String, owner: String) async throws -> HabitRecord {
        try await read { db in try Self.habit(db, id, owner: owner) }
    }

    static func habit(_ db: Database, _ id: String, owner: String) throws -> HabitRecord {
        guard let habit = try HabitRecord.fetchOne(db, key: id), habit.userId == owner else {
            throw HabitsError.notFound("The habit")
        }
        return habit
    }

    func habitsWithStatus(of userIDs: [String], only habitID: String?, todays: [String: LocalDay])
        async throws -> [HabitWithStatus]
    {
        guard !userIDs.isEmpty else { return [] }
        return try await read { db in try Self.habitsWithStatus(db, of: userIDs, only: habitID, todays: todays) }
    }

    /// Due-ness and today's event come from the rows the status is read from (today is inside the status window), so
    /// the list costs the habits' statements only: a separate statement for the due habits was 6.5% of the request.
    func todayList(of userID: String, clock: WallClock) async throws -> [HabitWithStatus] {
        try await read { db in
            let today = clock.today(inZone: try Self.timeZone(db, userID))
            return try Self.habitsWithStatus(db, of: [userID], only: nil, todays: [userID: today]).filter {
                $0.habit.archivedAt == nil && $0.habit.isDue(on: today)
            }
        }
    }

    static func habitsWithStatus(
        _ db: Database, of userIDs: [String], only habitID: String?, todays: [String: LocalDay]
    )
        throws -> [HabitWithStatus]
    {
        try habits(db, of: userIDs, only: habitID, eventsSince: HabitWithRecentDays.windowStarts(todays)).map {
            $0.withStatus(todays)
        }
    }

    /// The habits of these users (or just `habitID` among them), oldest first, each with its events since `since`
    /// (their days for its status) and whether it has any event at all.
    static func habits(
        _ db: Database, of userIDs: [String], only habitID: String?, eventsSince since: [String: LocalDay]
    )
        throws -> [HabitWithRecentDays]
    {
        let habits: [HabitRecord]
        if userIDs.count == 1 {
            // One owner (my own list, the hot read): SQL kept compiled, one statement for all habits and one for one.
            let oneHabit = habitID == nil ? "" : " AND id = ?"
            habits = try HabitRecord.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM habits WHERE user_id = ?\(oneHabit) ORDER BY \(Self.order)"),
                arguments: habitID.map { [userIDs[0], $0] } ?? [userIDs[0]])
        } else {
            // A list of owners makes a shape per length, so it is not kept.
            var request = HabitRecord.filter(userIDs.contains(HabitRecord.Columns.userId))
            if let habitID { request = request.filter(HabitRecord.Columns.id == habitID) }
            habits = try request.order(sql: Self.order).fetchAll(db)
        }
        return try habits.map { habit in
            let from = since[habit.userId]?.description ?? "0000-00-00"
            // The unique key (habit_id, day) holds the id too (the rowid): no row is read. Read through a cursor: with
            // `Row.fetchAll` copying each row this statement was 7.1% of the today list in a profile, this way 4.9%.
            let rows = try Row.fetchCursor(
                db.cachedStatement(
                    sql:
                        "SELECT \(Self.dayNumber), id, COALESCE(value_milli, 0) FROM events WHERE habit_id = ? AND day >= ?"
                ),
                arguments: [habit.id, from])
            var events: [(day: Int, id: Int64, value: Int64)] = []
            while let row = try rows.next() {
                events.append(
                    (day: try row.decode(atIndex: 0), id: try row.decode(atIndex: 1), value: try row.decode(atIndex: 2))
                )
            }
            var hasEvents = !events.isEmpty
            if !hasEvents {
                hasEvents =
                    try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = ?)"),
                        arguments: [habit.id]) ?? false
            }
            let (skips, pauses) = try Self.excuses(db, of: habit.id, since: from)
            return HabitWithRecentDays(
                habit: habit, recentEvents: events, hasEvents: hasEvents, skips: skips.map(\.number),
                pauses: pauses.map { (from: $0.from.number, to: $0.to.number) })
        }
    }

    /// The owner's manual order, then creation (a habit never ordered goes after the ordered ones).
    static let order = "sort_order IS NULL, sort_order, created_at, rowid"

    /// A habit's skipped days and pauses that reach `since` or later.
    static func excuses(_ db: Database, of habitID: String, since: String) throws
        -> (skips: [LocalDay], pauses: [(from: LocalDay, to: LocalDay)])
    {
        let skips = try String.fetchAll(
            db.cachedStatement(sql: "SELECT day FROM skips WHERE habit_id = ? AND day >= ? ORDER BY day"),
            arguments: [habitID, since]
        ).compactMap { LocalDay($0) }
        let pauses = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT from_day, to_day FROM pauses WHERE habit_id = ? AND to_day >= ?"),
            arguments: [habitID, since]
        ).compactMap { row -> (from: LocalDay, to: LocalDay)? in
            guard let from = LocalDay(row[0] as String), let to = LocalDay(row[1] as String) else { return nil }
            return (from, to)
        }
        return (skips, pauses)
    }

    func setOrder(of owner: String, ids: [String], now: Date) async throws {
        try await write { db in
            let current = try String.fetchAll(
                db.cachedStatement(sql: "SELECT id FROM habits WHERE user_id = ? ORDER BY \(Self.order)"),
                arguments: [owner])
            for (index, id) in try HabitOrder.arrange(current: current, requested: ids).enumerated() {
                try db.execute(
                    sql: "UPDATE habits SET sort_order = ?, updated_at = ? WHERE id = ?", arguments: [index, now, id])
            }
        }
    }

    func exportEvents(of owner: String, habitID: String?) async throws -> [EventListRecord] {
        try await read { db in
            if let habitID { _ = try Self.habit(db, habitID, owner: owner) }
            let oneHabit = habitID == nil ? "" : " AND e.habit_id = ?"
            return try EventListRecord.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.listSelection) FROM events e JOIN habits h ON h.id = e.habit_id
                        WHERE e.user_id = ?\(oneHabit) ORDER BY e.day, e.id
                        """),
                arguments: habitID.map { [owner, $0] } ?? [owner])
        }
    }

    func updateHabit(_ id: String, owner: String, now: Date, _ change: @Sendable (inout HabitRecord) throws -> Void)
        async throws -> HabitRecord
    {
        try await write { db in
            var habit = try Self.habit(db, id, owner: owner)
            try change(&habit)
            habit.updatedAt = now
            try habit.update(db)
            return habit
        }
    }

    /// Its events, their photos and locations go with it (cascades and triggers).
    func deleteHabit(_ id: String, owner: String) async throws {
        try await write { db in
            _ = try Self.habit(db, id, owner: owner)
            try db.execute(sql: "DELETE FROM habits WHERE id = ?", arguments: [id])
        }
    }

    func eventDays(of habitID: String, owner: String) async throws -> HabitDays {
        try await read { db in
            let habit = try Self.habit(db, habitID, owner: owner)
            // A yes/no habit's days are its events; a measurable one's, those whose value meets the target.
            let days = try Int.fetchAll(
                db, sql: "SELECT \(Self.dayNumber) FROM events WHERE habit_id = ? AND COALESCE(value_milli, 0) >= ?",
                arguments: [habitID, habit.targetMilli ?? 0])
            let (skips, pauses) = try Self.excuses(db, of: habitID, since: "")
            return HabitDays(
                habit: habit, done: DaySet(days.map(LocalDay.init(number:))),
                excused: Excuses.days(skips: skips, pauses: pauses))
        }
    }

    /// An event's day as days since 1970-01-01, computed by SQLite (julianday of 1970-01-01 is 2440587.5),
    /// so five years of events need no date parsing in Swift.
    static let dayNumber = "CAST(julianday(day) - 2440587.5 AS INTEGER)"
}
