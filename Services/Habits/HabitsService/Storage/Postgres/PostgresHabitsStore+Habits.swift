import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHabitsStore {
    func createHabit(_ habit: HabitRecord) async throws {
        guard PostgresText.fits(habit.id, habit.userId, habit.title, habit.reason, habit.startDate) else {
            throw HabitsError.invalidField("title", "must not hold a NUL character.")
        }
        _ = try await write { db in
            try await db.execute(
                """
                INSERT INTO habits (id, user_id, title, reason, weekdays, start_date, created_at, updated_at)
                VALUES (\(habit.id), \(habit.userId), \(habit.title), \(habit.reason), \(Int32(habit.weekdays)),
                    \(habit.startDate), \(habit.createdAt.habitsMilliseconds), \(habit.updatedAt.habitsMilliseconds))
                """)
        }
    }

    func habit(_ id: String, owner: String) async throws -> HabitRecord {
        try await read { db in try await Self.habit(db, id, owner: owner) }
    }

    static func habit(_ db: PostgresSession, _ id: String, owner: String, lock: Bool = false) async throws
        -> HabitRecord
    {
        guard PostgresText.fits(id, owner),
            let habit = try await db.first(
                lock
                    ? "SELECT \(unescaped: HabitRecord.postgresColumns) FROM habits WHERE id = \(id) FOR UPDATE"
                    : "SELECT \(unescaped: HabitRecord.postgresColumns) FROM habits WHERE id = \(id)",
                HabitRecord.init(postgres:)),
            habit.userId == owner
        else { throw HabitsError.notFound("The habit") }
        return habit
    }

    func habitsWithStatus(of userIDs: [String], only habitID: String?, todays: [String: LocalDay]) async throws
        -> [HabitWithStatus]
    {
        guard !userIDs.isEmpty else { return [] }
        return try await snapshot { db in
            try await Self.habits(db, of: userIDs, only: habitID, eventsSince: HabitWithRecentDays.windowStarts(todays))
                .map { $0.withStatus(todays) }
        }
    }

    func todayList(of userID: String, clock: WallClock) async throws -> [HabitWithStatus] {
        guard PostgresText.fits(userID) else { return [] }
        // One statement (a snapshot of its own): the habits with their events since the earliest day the status
        // window can start in any time zone (today is at most a day behind UTC's), and the owner's time zone, which
        // then gives the exact window.
        let earliest = clock.today(inZone: "UTC").adding(days: -1)
        let since = HabitWithRecentDays.windowStarts([userID: earliest])[userID] ?? earliest
        let rows = try await read { db in try await db.rows(TodayList(userID: userID, since: since.description)) }
        let today = clock.today(inZone: rows.first?.timeZone ?? HabitsStoreDefaults.timeZone)
        let todays = [userID: today]
        let windowStart = HabitWithRecentDays.windowStarts(todays)[userID]?.number ?? today.number
        return rows.map { row in
            var entry = row.habit
            entry.recentEvents.removeAll { $0.day < windowStart }
            return entry.withStatus(todays)
        }.filter { $0.habit.isDue(on: today) }
    }

    /// A user's habits, oldest first, each with its events from `since` (days and ids, by day) and whether it has any
    /// event at all; every row also carries the user's time zone, if they set one.
    struct TodayList: PostgresPreparedStatement {
        static let sql = """
            SELECT \(HabitRecord.postgresColumns),
                (SELECT time_zone FROM preferences WHERE user_id = $1),
                ARRAY(SELECT \(dayNumber) FROM events e WHERE e.habit_id = h.id AND e.day >= $2 ORDER BY e.day, e.id),
                ARRAY(SELECT e.id FROM events e WHERE e.habit_id = h.id AND e.day >= $2 ORDER BY e.day, e.id),
                EXISTS (SELECT 1 FROM events e WHERE e.habit_id = h.id)
            FROM habits h WHERE h.user_id = $1 ORDER BY h.created_at, h.position
            """
        let userID: String
        let since: String

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(userID)
            bindings.append(since)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (habit: HabitWithRecentDays, timeZone: String?) {
            let (_, _, _, _, _, _, _, _, timeZone, days, ids, hasEvents) = try row.decode(
                (String, String, String, String, Int32, String, Int64, Int64, String?, [Int32], [Int64], Bool).self)
            let events = zip(days, ids).map { (day: Int($0), id: $1) }
            return (
                HabitWithRecentDays(habit: try HabitRecord(postgres: row), recentEvents: events, hasEvents: hasEvents),
                timeZone
            )
        }
    }

    /// The habits of these users (or just `habitID` among them), oldest first, each with its events since `since`
    /// (their days for its status) and whether it has any event at all.
    static func habits(
        _ db: PostgresSession, of userIDs: [String], only habitID: String?, eventsSince since: [String: LocalDay]
    ) async throws -> [HabitWithRecentDays] {
        let userIDs = PostgresText.fitting(userIDs)
        guard !userIDs.isEmpty, PostgresText.fits(habitID) else { return [] }
        let query: PostgresQuery =
            if let habitID {
                """
                SELECT \(unescaped: HabitRecord.postgresColumns) FROM habits
                WHERE user_id = ANY(\(userIDs)) AND id = \(habitID) ORDER BY created_at, position
                """
            } else {
                """
                SELECT \(unescaped: HabitRecord.postgresColumns) FROM habits
                WHERE user_id = ANY(\(userIDs)) ORDER BY created_at, position
                """
            }
        let habits = try await db.rows(query).map(HabitRecord.init(postgres:))
        var entries: [HabitWithRecentDays] = []
        for habit in habits {
            let from = since[habit.userId]?.description ?? "0000-00-00"
            let events = try await db.rows(
                """
                SELECT \(unescaped: dayNumber), id FROM events WHERE habit_id = \(habit.id) AND day >= \(from)
                ORDER BY day
                """
            ).map { row in
                let (day, id) = try row.decode((Int32, Int64).self)
                return (day: Int(day), id: id)
            }
            var hasEvents = !events.isEmpty
            if !hasEvents {
                hasEvents =
                    try await db.value(
                        "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = \(habit.id))", as: Bool.self) ?? false
            }
            entries.append(HabitWithRecentDays(habit: habit, recentEvents: events, hasEvents: hasEvents))
        }
        return entries
    }

    func updateHabit(_ id: String, owner: String, now: Date, _ change: @Sendable (inout HabitRecord) throws -> Void)
        async throws -> HabitRecord
    {
        try await write { db in
            var habit = try await Self.habit(db, id, owner: owner, lock: true)
            try change(&habit)
            habit.updatedAt = Date(habitsMilliseconds: now.habitsMilliseconds)
            guard PostgresText.fits(habit.title, habit.reason, habit.startDate) else {
                throw HabitsError.invalidField("title", "must not hold a NUL character.")
            }
            try await db.execute(
                """
                UPDATE habits SET title = \(habit.title), reason = \(habit.reason), weekdays = \(Int32(habit.weekdays)),
                    start_date = \(habit.startDate), updated_at = \(habit.updatedAt.habitsMilliseconds)
                WHERE id = \(id)
                """)
            return habit
        }
    }

    func deleteHabit(_ id: String, owner: String) async throws {
        try await write { db in
            // After the owner's event writers: an event being recorded for this habit commits first (and goes with
            // it) instead of failing on the habit gone under it.
            try await db.lockOwner(owner)
            _ = try await Self.habit(db, id, owner: owner, lock: true)
            try await db.execute("DELETE FROM habits WHERE id = \(id)")
        }
    }

    func eventDays(of habitID: String, owner: String) async throws -> (HabitRecord, DaySet) {
        let (habit, days) = try await snapshot { db in
            let habit = try await Self.habit(db, habitID, owner: owner)
            let days = try await db.rows("SELECT \(unescaped: Self.dayNumber) FROM events WHERE habit_id = \(habitID)")
                .map { Int(try $0.decode(Int32.self)) }
            return (habit, days)
        }
        return (habit, DaySet(days.map(LocalDay.init(number:))))
    }

    /// An event's day as days since 1970-01-01 (`day` is `YYYY-MM-DD`), as SQLite's julianday arithmetic gives.
    static let dayNumber = "(day::date - DATE '1970-01-01')"
}
