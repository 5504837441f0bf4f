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

extension EventRules {
    /// A measurable habit's event carries the day's value; a yes/no habit's carries none.
    static func checkValue(_ value: Int64?, target: Int64?) throws {
        if target == nil, value != nil {
            throw HabitsError.invalidField("value", "only a measurable habit (one with a target) takes a value.")
        }
        if target != nil, value == nil {
            throw HabitsError.invalidField("value", "is required for a measurable habit.")
        }
    }
}
