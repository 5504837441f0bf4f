import Foundation
import GRDB
import PlatformKit
import ServiceKit

/// The habits service's storage: the only place that knows SQL. Each method is one transaction.
/// Every habit and event belongs to one user; methods that take an `owner` answer 404 to anyone else,
/// so another user's habits are not even revealed to exist.
struct HabitsDatabase: Sendable {
    let writer: any DatabaseWriter

    init(_ location: DatabaseLocation) throws {
        self.writer = try ServiceDatabase.open(location, migrator: HabitsMigrations.migrator)
    }

    // MARK: Preferences

    static let defaultTimeZone = "UTC"

    func timeZone(of userID: String) async throws -> String {
        try await writer.read { db in
            try String.fetchOne(db, sql: "SELECT time_zone FROM preferences WHERE user_id = ?", arguments: [userID])
        } ?? Self.defaultTimeZone
    }

    func timeZones(of userIDs: [String]) async throws -> [String: String] {
        guard !userIDs.isEmpty else { return [:] }
        return try await writer.read { db in
            let rows = try PreferenceRow.fetchAll(
                db, SQLRequest(literal: "SELECT * FROM preferences WHERE user_id IN \(userIDs)"))
            return Dictionary(rows.map { ($0.userId, $0.timeZone) }, uniquingKeysWith: { a, _ in a })
        }
    }

    func setTimeZone(of userID: String, to timeZone: String) async throws {
        try await writer.write { db in try PreferenceRow(userId: userID, timeZone: timeZone).upsert(db) }
    }

    // MARK: Habits

    func createHabit(_ habit: HabitRow) async throws {
        try await writer.write { db in try habit.insert(db) }
    }

    func habit(_ id: String, owner: String) async throws -> HabitRow {
        try await writer.read { db in try Self.habit(db, id, owner: owner) }
    }

    static func habit(_ db: Database, _ id: String, owner: String) throws -> HabitRow {
        guard let habit = try HabitRow.fetchOne(db, key: id), habit.userId == owner else {
            throw Problem.notFound("The habit")
        }
        return habit
    }

    /// The habits of these users (or just `habitID` among them), oldest first, each with the days it has
    /// events on since `since` (for its status) and whether it has any event at all.
    func habits(of userIDs: [String], only habitID: String? = nil, eventsSince since: [String: Day]) async throws
        -> [HabitWithRecentDays]
    {
        guard !userIDs.isEmpty else { return [] }
        return try await writer.read { db in
            let only: SQL = habitID.map { id -> SQL in "AND id = \(id)" } ?? ""
            let habits = try HabitRow.fetchAll(
                db,
                SQLRequest(
                    literal: "SELECT * FROM habits WHERE user_id IN \(userIDs) \(only) ORDER BY created_at, rowid"))
            return try habits.map { habit in
                let from = since[habit.userId]?.description ?? "0000-00-00"
                let days = try Int.fetchAll(
                    db, sql: "SELECT \(Self.dayNumber) FROM events WHERE habit_id = ? AND day >= ?",
                    arguments: [habit.id, from])
                var hasEvents = !days.isEmpty
                if !hasEvents {
                    hasEvents =
                        try Bool.fetchOne(
                            db, sql: "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = ?)", arguments: [habit.id])
                        ?? false
                }
                return HabitWithRecentDays(
                    habit: habit, recentDays: DaySet(days.map(Day.init(number:))), hasEvents: hasEvents)
            }
        }
    }

    /// Changes my habit; the closure validates and edits it.
    func updateHabit(_ id: String, owner: String, now: Date, _ change: @Sendable (inout HabitRow) throws -> Void)
        async throws -> HabitRow
    {
        try await writer.write { db in
            var habit = try Self.habit(db, id, owner: owner)
            try change(&habit)
            habit.updatedAt = now
            try habit.update(db)
            return habit
        }
    }

    /// Deletes my habit with its events, their photos and locations (cascades and triggers).
    func deleteHabit(_ id: String, owner: String) async throws {
        try await writer.write { db in
            _ = try Self.habit(db, id, owner: owner)
            try db.execute(sql: "DELETE FROM habits WHERE id = ?", arguments: [id])
        }
    }

    /// My habits due `today` (scheduled that weekday, started) that have no event that day yet.
    func todo(of userID: String, today: Day) async throws -> [HabitRow] {
        try await writer.read { db in
            try HabitRow.fetchAll(
                db,
                sql: """
                    SELECT * FROM habits h
                    WHERE h.user_id = ? AND (h.weekdays & ?) != 0 AND h.start_date <= ?
                      AND NOT EXISTS (SELECT 1 FROM events e WHERE e.habit_id = h.id AND e.day = ?)
                    ORDER BY h.created_at, h.rowid
                    """,
                arguments: [userID, 1 << (today.isoWeekday - 1), today.description, today.description])
        }
    }

    /// The days my habit has events on, for its statistics.
    func eventDays(of habitID: String, owner: String) async throws -> (HabitRow, DaySet) {
        try await writer.read { db in
            let habit = try Self.habit(db, habitID, owner: owner)
            let days = try Int.fetchAll(
                db, sql: "SELECT \(Self.dayNumber) FROM events WHERE habit_id = ?", arguments: [habitID])
            return (habit, DaySet(days.map(Day.init(number:))))
        }
    }

    /// An event's day as days since 1970-01-01, computed by SQLite (julianday of 1970-01-01 is 2440587.5),
    /// so five years of events need no date parsing in Swift.
    static let dayNumber = "CAST(julianday(day) - 2440587.5 AS INTEGER)"
}

/// A habit with what its status needs.
struct HabitWithRecentDays: Sendable {
    var habit: HabitRow
    var recentDays: DaySet
    var hasEvents: Bool
}
