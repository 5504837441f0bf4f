import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension HabitsDatabase {
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

    /// The habits of these users (or just `habitID` among them), oldest first, each with its status as of
    /// `todays[owner]` (today in the owner's time zone).
    func habitsWithStatus(of userIDs: [String], only habitID: String? = nil, todays: [String: LocalDay])
        async throws -> [(habit: HabitRecord, status: HabitProgress.Status)]
    {
        guard !userIDs.isEmpty else { return [] }
        return try await read { db in try Self.habitsWithStatus(db, of: userIDs, only: habitID, todays: todays) }
    }

    /// Today's list in one transaction, so its parts agree: the habits due today in the user's time zone (in order,
    /// each with the id of today's event if done) and the user's habits with their status.
    func todayList(of userID: String, clock: WallClock) async throws -> (
        due: [(habitID: String, todayEventID: Int64?)], habits: [(habit: HabitRecord, status: HabitProgress.Status)]
    ) {
        try await read { db in
            let today = clock.today(inZone: try Self.timeZone(db, userID))
            return (
                try Self.dueToday(db, of: userID, today: today),
                try Self.habitsWithStatus(db, of: [userID], only: nil, todays: [userID: today])
            )
        }
    }

    static func habitsWithStatus(
        _ db: Database, of userIDs: [String], only habitID: String?, todays: [String: LocalDay]
    )
        throws -> [(habit: HabitRecord, status: HabitProgress.Status)]
    {
        let since = todays.mapValues { $0.adding(days: 1 - HabitProgress.statusWindowDays) }
        return try habits(db, of: userIDs, only: habitID, eventsSince: since).map { entry in
            let progress = HabitProgress(
                weekdays: entry.habit.schedule, start: entry.habit.start,
                today: todays[entry.habit.userId] ?? LocalDay(number: 0), done: entry.recentDays)
            return (entry.habit, progress.status(hasEvents: entry.hasEvents))
        }
    }

    /// The habits of these users (or just `habitID` among them), oldest first, each with the days it has
    /// events on since `since` (for its status) and whether it has any event at all.
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
                db.cachedStatement(sql: "SELECT * FROM habits WHERE user_id = ?\(oneHabit) ORDER BY created_at, rowid"),
                arguments: habitID.map { [userIDs[0], $0] } ?? [userIDs[0]])
        } else {
            // A list of owners makes a shape per length, so it is not kept.
            var request = HabitRecord.filter(userIDs.contains(HabitRecord.Columns.userId))
            if let habitID { request = request.filter(HabitRecord.Columns.id == habitID) }
            habits = try request.order(HabitRecord.Columns.createdAt, Column.rowID).fetchAll(db)
        }
        return try habits.map { habit in
            let from = since[habit.userId]?.description ?? "0000-00-00"
            let days = try Int.fetchAll(
                db.cachedStatement(sql: "SELECT \(Self.dayNumber) FROM events WHERE habit_id = ? AND day >= ?"),
                arguments: [habit.id, from])
            var hasEvents = !days.isEmpty
            if !hasEvents {
                hasEvents =
                    try Bool.fetchOne(
                        db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = ?)"),
                        arguments: [habit.id]) ?? false
            }
            return HabitWithRecentDays(
                habit: habit, recentDays: DaySet(days.map(LocalDay.init(number:))), hasEvents: hasEvents)
        }
    }

    /// Changes my habit; the closure validates and edits it.
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

    /// Deletes my habit with its events, their photos and locations (cascades and triggers).
    func deleteHabit(_ id: String, owner: String) async throws {
        try await write { db in
            _ = try Self.habit(db, id, owner: owner)
            try db.execute(sql: "DELETE FROM habits WHERE id = ?", arguments: [id])
        }
    }

    /// The user's habits due `today` (scheduled that weekday, started) in order, each with the id of today's event once
    /// it is done.
    static func dueToday(_ db: Database, of userID: String, today: LocalDay) throws
        -> [(habitID: String, todayEventID: Int64?)]
    {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT h.id, (SELECT e.id FROM events e WHERE e.habit_id = h.id AND e.day = ?) FROM habits h
                    WHERE h.user_id = ? AND (h.weekdays & ?) != 0 AND h.start_date <= ?
                    ORDER BY h.created_at, h.rowid
                    """),
            arguments: [today.description, userID, 1 << (today.isoWeekday - 1), today.description]
        ).map { ($0[0], $0[1]) }
    }

    /// The days my habit has events on, for its statistics.
    func eventDays(of habitID: String, owner: String) async throws -> (HabitRecord, DaySet) {
        try await read { db in
            let habit = try Self.habit(db, habitID, owner: owner)
            let days = try Int.fetchAll(
                db, sql: "SELECT \(Self.dayNumber) FROM events WHERE habit_id = ?", arguments: [habitID])
            return (habit, DaySet(days.map(LocalDay.init(number:))))
        }
    }

    /// An event's day as days since 1970-01-01, computed by SQLite (julianday of 1970-01-01 is 2440587.5),
    /// so five years of events need no date parsing in Swift.
    static let dayNumber = "CAST(julianday(day) - 2440587.5 AS INTEGER)"
}

/// A habit with what its status needs.
struct HabitWithRecentDays: Sendable {
    var habit: HabitRecord
    var recentDays: DaySet
    var hasEvents: Bool
}
