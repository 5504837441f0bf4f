import Foundation
import GRDB
import PlatformKit
import ServiceKit

extension SQLiteHabitsStore {
    /// One process owns the file, and the claim is one write transaction: each (habit, day) row is inserted once.
    func claimReminders(now: Date) async throws -> [ClaimedReminder] {
        try await write { db in
            let candidates = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT h.*, p.time_zone AS owner_zone FROM habits h
                        LEFT JOIN preferences p ON p.user_id = h.user_id
                        WHERE h.reminder_minute IS NOT NULL AND h.archived_at IS NULL ORDER BY h.id
                        """))
            var claimed: [ClaimedReminder] = []
            for row in candidates {
                let habit = try HabitRecord(row: row)
                let zone: String = row["owner_zone"] ?? HabitsStoreDefaults.timeZone
                guard let day = ReminderRules.day(for: habit, now: now, zoneName: zone) else { continue }
                let value = try Int64.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT COALESCE(value_milli, 0) FROM events WHERE habit_id = ? AND day = ?"),
                    arguments: [habit.id, day.description])
                let (skips, pauses) = try Self.excuses(db, of: habit.id, since: day.description)
                guard
                    ReminderRules.remind(
                        doneValue: value, rule: habit.doneRule,
                        excused: Excuses.days(skips: skips, pauses: pauses).contains(day))
                else { continue }
                try db.execute(
                    sql: "INSERT OR IGNORE INTO reminders_sent (habit_id, day, sent_at) VALUES (?, ?, ?)",
                    arguments: [habit.id, day.description, now])
                if db.changesCount > 0 { claimed.append(ClaimedReminder(habit: habit, day: day)) }
            }
            return claimed
        }
    }
}
