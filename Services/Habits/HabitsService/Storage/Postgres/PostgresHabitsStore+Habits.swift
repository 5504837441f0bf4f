import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHabitsStore {
    func createHabit(_ habit: HabitRecord) async throws {
        guard PostgresText.fits(habit.id, habit.userId, habit.title, habit.reason, habit.startDate),
            PostgresText.fits(habit.unit)
        else {
            throw HabitsError.invalidField("title", "must not hold a NUL character.")
        }
        _ = try await write { db in
            try await db.execute(
                """
                INSERT INTO habits (id, user_id, title, reason, weekdays, start_date, created_at, updated_at,
                    target_milli, unit, reminder_minute)
                VALUES (\(habit.id), \(habit.userId), \(habit.title), \(habit.reason), \(Int32(habit.weekdays)),
                    \(habit.startDate), \(habit.createdAt.millisecondsSince1970),
                    \(habit.updatedAt.millisecondsSince1970),
                    \(habit.targetMilli), \(habit.unit), \(habit.reminderMinute.map(Int32.init)))
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
        }.filter { $0.habit.archivedAt == nil && $0.habit.isDue(on: today) }
    }

    /// A user's habits in their order, each with its events from `since` (days, ids and values, by day), whether it
    /// has any event at all, and its skips and pauses from `since`; every row also carries the user's time zone, if
    /// they set one.
    struct TodayList: PostgresPreparedStatement {
        static let sql = """
            SELECT \(HabitRecord.postgresColumns),
                (SELECT time_zone FROM preferences WHERE user_id = $1),
                ARRAY(SELECT \(dayNumber) FROM events e WHERE e.habit_id = h.id AND e.day >= $2 ORDER BY e.day, e.id),
                ARRAY(SELECT e.id FROM events e WHERE e.habit_id = h.id AND e.day >= $2 ORDER BY e.day, e.id),
                ARRAY(SELECT COALESCE(e.value_milli, 0) FROM events e WHERE e.habit_id = h.id AND e.day >= $2
                    ORDER BY e.day, e.id),
                EXISTS (SELECT 1 FROM events e WHERE e.habit_id = h.id),
                ARRAY(SELECT \(dayNumber) FROM skips s WHERE s.habit_id = h.id AND s.day >= $2),
                ARRAY(SELECT (p.from_day::date - DATE '1970-01-01') FROM pauses p WHERE p.habit_id = h.id AND p.to_day >= $2
                    ORDER BY p.id),
                ARRAY(SELECT (p.to_day::date - DATE '1970-01-01') FROM pauses p WHERE p.habit_id = h.id AND p.to_day >= $2
                    ORDER BY p.id)
            FROM habits h WHERE h.user_id = $1 ORDER BY \(order)
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
            var cells = row.makeIterator()
            for _ in 0..<HabitRecord.postgresColumnCount { _ = cells.next() }
            func next<T: PostgresDecodable>(_ type: T.Type) throws -> T {
                guard let cell = cells.next() else { throw HabitsError.notFound("The habit") }
                return try cell.decode(T.self)
            }
            let timeZone = try next(String?.self)
            let (days, ids, values) = (try next([Int32].self), try next([Int64].self), try next([Int64].self))
            let hasEvents = try next(Bool.self)
            let (skips, pauseStarts, pauseEnds) = (
                try next([Int32].self), try next([Int32].self), try next([Int32].self)
            )
            var events: [(day: Int, id: Int64, value: Int64)] = []
            for index in days.indices where index < ids.count && index < values.count {
                events.append((day: Int(days[index]), id: ids[index], value: values[index]))
            }
            return (
                HabitWithRecentDays(
                    habit: try HabitRecord(postgres: row), recentEvents: events, hasEvents: hasEvents,
                    skips: skips.map(Int.init),
                    pauses: zip(pauseStarts, pauseEnds).map { (from: Int($0), to: Int($1)) }),
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
                WHERE user_id = ANY(\(userIDs)) AND id = \(habitID) ORDER BY \(unescaped: order)
                """
            } else {
                """
                SELECT \(unescaped: HabitRecord.postgresColumns) FROM habits
                WHERE user_id = ANY(\(userIDs)) ORDER BY \(unescaped: order)
                """
            }
        let habits = try await db.rows(query).map(HabitRecord.init(postgres:))
        var entries: [HabitWithRecentDays] = []
        for habit in habits {
            let from = since[habit.userId]?.description ?? "0000-00-00"
            let events = try await db.rows(
                """
                SELECT \(unescaped: dayNumber), id, COALESCE(value_milli, 0) FROM events
                WHERE habit_id = \(habit.id) AND day >= \(from) ORDER BY day
                """
            ).map { row in
                let (day, id, value) = try row.decode((Int32, Int64, Int64).self)
                return (day: Int(day), id: id, value: value)
            }
            var hasEvents = !events.isEmpty
            if !hasEvents {
                hasEvents =
                    try await db.value(
                        "SELECT EXISTS (SELECT 1 FROM events WHERE habit_id = \(habit.id))", as: Bool.self) ?? false
            }
            let (skips, pauses) = try await excuses(db, of: habit.id, since: from)
            entries.append(
                HabitWithRecentDays(
                    habit: habit, recentEvents: events, hasEvents: hasEvents, skips: skips.map(\.number),
                    pauses: pauses.map { (from: $0.from.number, to: $0.to.number) }))
        }
        return entries
    }

    /// The owner's manual order, then creation (a habit never ordered goes after the ordered ones).
    static let order = "sort_order IS NULL, sort_order, created_at, position"

    /// A habit's skipped days and pauses that reach `since` or later.
    static func excuses(_ db: PostgresSession, of habitID: String, since: String) async throws
        -> (skips: [LocalDay], pauses: [(from: LocalDay, to: LocalDay)])
    {
        let skips = try await db.rows(
            "SELECT day FROM skips WHERE habit_id = \(habitID) AND day >= \(since) ORDER BY day"
        ).compactMap { LocalDay(try $0.decode(String.self)) }
        let pauses = try await db.rows(
            "SELECT from_day, to_day FROM pauses WHERE habit_id = \(habitID) AND to_day >= \(since)"
        ).compactMap { row -> (from: LocalDay, to: LocalDay)? in
            let (from, to) = try row.decode((String, String).self)
            guard let first = LocalDay(from), let last = LocalDay(to) else { return nil }
            return (first, last)
        }
        return (skips, pauses)
    }

    func setOrder(of owner: String, ids: [String], now: Date) async throws {
        guard PostgresText.fits(owner), PostgresText.fitting(ids).count == ids.count else {
            throw HabitsError.notFound("The habit")
        }
        try await write { db in
            // The owner's lock: two reorders at once apply one after the other, never interleaved.
            try await db.lockOwner(owner)
            let current = try await db.rows(
                "SELECT id FROM habits WHERE user_id = \(owner) ORDER BY \(unescaped: Self.order)"
            ).map { try $0.decode(String.self) }
            let ordered = try HabitOrder.arrange(current: current, requested: ids)
            let positions = ordered.indices.map { Int32($0) }
            try await db.execute(
                """
                UPDATE habits SET sort_order = o.position, updated_at = \(now.millisecondsSince1970)
                FROM unnest(\(ordered)::text[], \(positions)::integer[]) AS o(id, position)
                WHERE habits.id = o.id AND habits.user_id = \(owner)
                """)
        }
    }

    func exportEvents(of owner: String, habitID: String?) async throws -> [EventListRecord] {
        guard PostgresText.fits(owner, habitID) else { throw HabitsError.notFound("The habit") }
        return try await snapshot { db in
            if let habitID {
                _ = try await Self.habit(db, habitID, owner: owner)
                return try await db.rows(
                    """
                    SELECT \(unescaped: EventListRecord.postgresColumns) FROM events e JOIN habits h ON h.id = e.habit_id
                    WHERE e.user_id = \(owner) AND e.habit_id = \(habitID) ORDER BY e.day, e.id
                    """
                ).map(EventListRecord.init(postgres:))
            }
            return try await db.rows(
                """
                SELECT \(unescaped: EventListRecord.postgresColumns) FROM events e JOIN habits h ON h.id = e.habit_id
                WHERE e.user_id = \(owner) ORDER BY e.day, e.id
                """
            ).map(EventListRecord.init(postgres:))
        }
    }

    func updateHabit(_ id: String, owner: String, now: Date, _ change: @Sendable (inout HabitRecord) throws -> Void)
        async throws -> HabitRecord
    {
        try await write { db in
            var habit = try await Self.habit(db, id, owner: owner, lock: true)
            try change(&habit)
            habit.updatedAt = Date(millisecondsSince1970: now.millisecondsSince1970)
            guard PostgresText.fits(habit.title, habit.reason, habit.startDate), PostgresText.fits(habit.unit) else {
                throw HabitsError.invalidField("title", "must not hold a NUL character.")
            }
            try await db.execute(
                """
                UPDATE habits SET title = \(habit.title), reason = \(habit.reason), weekdays = \(Int32(habit.weekdays)),
                    start_date = \(habit.startDate), updated_at = \(habit.updatedAt.millisecondsSince1970),
                    target_milli = \(habit.targetMilli), unit = \(habit.unit),
                    reminder_minute = \(habit.reminderMinute.map(Int32.init)),
                    archived_at = \(habit.archivedAt?.millisecondsSince1970)
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

    func eventDays(of habitID: String, owner: String) async throws -> HabitDays {
        try await snapshot { db in
            let habit = try await Self.habit(db, habitID, owner: owner)
            // A yes/no habit's days are its events; a measurable one's, those whose value meets the target.
            let days = try await db.rows(
                """
                SELECT \(unescaped: Self.dayNumber) FROM events
                WHERE habit_id = \(habitID) AND COALESCE(value_milli, 0) >= \(habit.targetMilli ?? 0)
                """
            ).map { Int(try $0.decode(Int32.self)) }
            let (skips, pauses) = try await Self.excuses(db, of: habitID, since: "")
            return HabitDays(
                habit: habit, done: DaySet(days.map(LocalDay.init(number:))),
                excused: Excuses.days(skips: skips, pauses: pauses))
        }
    }

    /// An event's day as days since 1970-01-01 (`day` is `YYYY-MM-DD`), as SQLite's julianday arithmetic gives.
    static let dayNumber = "(day::date - DATE '1970-01-01')"
}
