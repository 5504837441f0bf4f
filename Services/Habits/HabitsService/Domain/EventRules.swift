import PlatformKit

/// Which days a habit may have an event on.
enum EventRules {
    /// An event is for a day the habit is due, on or after its start, and not in the future.
    static func check(_ day: LocalDay, weekdays: Weekdays, start: LocalDay, today: LocalDay) throws {
        guard day <= today else { throw HabitsError.eventInFuture }
        guard day >= start else { throw HabitsError.eventBeforeStart(start: start.description) }
        guard weekdays.contains(day) else { throw HabitsError.eventNotDue(day: day.description, dueOn: weekdays.names) }
    }
}
