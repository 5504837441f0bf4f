import Foundation
import PlatformKit
import PostgresNIO
import ServiceKit

extension PostgresHabitsStore {
    func setSkip(_ habitID: String, owner: String, day: LocalDay, skipped: Bool) async throws {
        guard PostgresText.fits(habitID, owner) else { throw HabitsError.notFound("The habit") }
        try await write { db in
            _ = try await Self.habit(db, habitID, owner: owner)
            if skipped {
                try await db.execute(
                    """
                    INSERT INTO skips (habit_id, user_id, day) VALUES (\(habitID), \(owner), \(day.description))
                    ON CONFLICT DO NOTHING
                    """)
            } else {
                try await db.execute("DELETE FROM skips WHERE habit_id = \(habitID) AND day = \(day.description)")
            }
        }
    }

    func skips(of habitID: String, owner: String) async throws -> [LocalDay] {
        guard PostgresText.fits(habitID, owner) else { throw HabitsError.notFound("The habit") }
        return try await snapshot { db in
            _ = try await Self.habit(db, habitID, owner: owner)
            return try await Self.excuses(db, of: habitID, since: "").skips
        }
    }

    func addPause(_ pause: PauseRecord, owner: String) async throws -> PauseRecord {
        guard PostgresText.fits(pause.habitId, owner) else { throw HabitsError.notFound("The habit") }
        return try await write { db in
            // The habit's row locked: two pauses added at once are counted one after the other.
            _ = try await Self.habit(db, pause.habitId, owner: owner, lock: true)
            let count =
                try await db.value(
                    "SELECT count(*) FROM pauses WHERE habit_id = \(pause.habitId)", as: Int64.self) ?? 0
            guard count < Excuses.maximumPauses else {
                throw HabitsError.invalidField("from", "a habit has at most \(Excuses.maximumPauses) pauses.")
            }
            var added = pause
            added.id =
                try await db.value(
                    """
                    INSERT INTO pauses (habit_id, user_id, from_day, to_day)
                    VALUES (\(pause.habitId), \(owner), \(pause.from), \(pause.to)) RETURNING id
                    """, as: Int64.self) ?? 0
            return added
        }
    }

    func pauses(of habitID: String, owner: String) async throws -> [PauseRecord] {
        guard PostgresText.fits(habitID, owner) else { throw HabitsError.notFound("The habit") }
        return try await snapshot { db in
            _ = try await Self.habit(db, habitID, owner: owner)
            return try await db.rows(
                "SELECT id, from_day, to_day FROM pauses WHERE habit_id = \(habitID) ORDER BY from_day, id"
            ).map { row in
                let (id, from, to) = try row.decode((Int64, String, String).self)
                return PauseRecord(id: id, habitId: habitID, from: from, to: to)
            }
        }
    }

    func deletePause(_ id: Int64, of habitID: String, owner: String) async throws {
        guard PostgresText.fits(habitID, owner) else { throw HabitsError.notFound("The habit") }
        try await write { db in
            _ = try await Self.habit(db, habitID, owner: owner)
            let deleted = try await db.execute(
                "DELETE FROM pauses WHERE id = \(id) AND habit_id = \(habitID) RETURNING 1")
            guard deleted > 0 else { throw HabitsError.notFound("The pause") }
        }
    }

    func claimReminders(now: Date) async throws -> [ClaimedReminder] {
        // Each reminder is claimed by inserting its row: of replicas running the job at once, the one whose insert
        // lands sends it; another's insert waits for that transaction, then does nothing (ON CONFLICT), and it skips.
        try await write { db in
            let candidates = try await db.rows(
                """
                SELECT \(unescaped: HabitRecord.postgresColumns),
                    (SELECT time_zone FROM preferences p WHERE p.user_id = h.user_id)
                FROM habits h WHERE reminder_minute IS NOT NULL AND archived_at IS NULL ORDER BY id
                """
            ).map { row in
                var cells = row.makeIterator()
                for _ in 0..<HabitRecord.postgresColumnCount { _ = cells.next() }
                let zone = try cells.next()?.decode(String?.self) ?? nil
                return (try HabitRecord(postgres: row), zone ?? HabitsStoreDefaults.timeZone)
            }
            var claimed: [ClaimedReminder] = []
            for (habit, zone) in candidates {
                guard let day = ReminderRules.day(for: habit, now: now, zoneName: zone) else { continue }
                let value = try await db.value(
                    "SELECT COALESCE(value_milli, 0) FROM events WHERE habit_id = \(habit.id) AND day = \(day.description)",
                    as: Int64.self)
                let (skips, pauses) = try await Self.excuses(db, of: habit.id, since: day.description)
                guard
                    ReminderRules.remind(
                        doneValue: value, rule: habit.doneRule,
                        excused: Excuses.days(skips: skips, pauses: pauses).contains(day))
                else { continue }
                let inserted = try await db.execute(
                    """
                    INSERT INTO reminders_sent (habit_id, user_id, day, sent_at)
                    VALUES (\(habit.id), \(habit.userId), \(day.description), \(now.millisecondsSince1970))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """)
                if inserted > 0 { claimed.append(ClaimedReminder(habit: habit, day: day)) }
            }
            return claimed
        }
    }
}
