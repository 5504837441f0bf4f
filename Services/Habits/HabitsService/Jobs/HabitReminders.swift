import Foundation
import PlatformKit
import ServiceKit

/// Sends each habit's reminder at its local time on due days (push and inbox through the notifications service),
/// quiet when the day is already done, skipped or paused. The store marks each (habit, day) sent in the transaction
/// that claims it, so a restart or a second replica never sends it again; one missed by more than an hour is dropped.
struct HabitReminders: Sendable {
    let store: any HabitsStore
    let notices: any NoticeSink

    /// Sends the reminders due at `now`; returns how many were sent.
    func run(now: Date) async throws -> Int {
        let claimed = try await store.claimReminders(now: now)
        for reminder in claimed {
            let habit = reminder.habit
            await notices.publish(
                Notice(
                    recipients: [habit.userId], kind: "habits.reminder", text: Self.text(habit),
                    link: HabitsPaths.habits + "/" + habit.id,
                    // One key per habit and day: a retried post is kept once by the notifications service.
                    idempotencyKey: "habit-reminder:\(habit.id):\(reminder.day)"))
        }
        return claimed.count
    }

    static func text(_ habit: HabitRecord) -> String {
        guard let target = habit.targetMilli else { return "Time for \(habit.title)" }
        let unit = habit.unit.map { $0.isEmpty ? "" : " " + $0 } ?? ""
        return "Time for \(habit.title): \(Amounts.text(target))\(unit) today"
    }
}
