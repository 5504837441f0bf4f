import Foundation
import PlatformKit
import ServiceKit

/// A habit as its owner sends it on create or edit; absent fields stay as they are on an edit.
struct HabitRequest: Decodable {
    var title: String?
    var reason: String?
    var weekdays: [String]?
    /// `YYYY-MM-DD` in my time zone; today by default.
    var startDate: String?
    /// A measurable habit's daily target (0.001 ... 1,000,000); only on create, or to change a measurable habit's.
    var target: Double?
    var unit: String?
    /// The reminder's local time; `null` removes it, absence keeps it.
    var reminder: Reminder??
    var archived: Bool?

    struct Reminder: Decodable {
        var time: String?
    }

    enum CodingKeys: String, CodingKey {
        case title, reason, weekdays, startDate, target, unit, reminder, archived
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        reason = try container.decodeIfPresent(String.self, forKey: .reason)
        weekdays = try container.decodeIfPresent([String].self, forKey: .weekdays)
        startDate = try container.decodeIfPresent(String.self, forKey: .startDate)
        target = try container.decodeIfPresent(Double.self, forKey: .target)
        unit = try container.decodeIfPresent(String.self, forKey: .unit)
        archived = try container.decodeIfPresent(Bool.self, forKey: .archived)
        // `"reminder": null` is a change (no reminder), which the synthesized decoding cannot tell from absence.
        if container.contains(.reminder) {
            reminder = .some(
                try container.decodeNil(forKey: .reminder) ? nil : container.decode(Reminder.self, forKey: .reminder))
        }
    }
}

/// The checks of a habit's fields, in the client's words.
enum HabitFields {
    static func title(_ value: String) throws -> String { try Validate.text(value, field: "title", max: 20) }

    static func reason(_ value: String) throws -> String {
        try Validate.text(value, field: "reason", min: 0, max: 30)
    }

    static func unit(_ value: String) throws -> String {
        try Validate.text(value, field: "unit", min: 0, max: Amounts.maximumUnitLength)
    }

    /// The reminder's minute after midnight; nil for none.
    static func reminder(_ value: HabitRequest.Reminder?) throws -> Int? {
        guard let value else { return nil }
        guard let time = value.time else { throw HabitsError.invalidField("reminder", "time is required.") }
        return try ReminderRules.minute(time)
    }

    /// A start from 2000-01-01 to a year from today.
    static func startDate(_ value: String, today: LocalDay) throws -> LocalDay {
        guard let day = LocalDay(value) else {
            throw HabitsError.invalidField("startDate", "must be a day as YYYY-MM-DD.")
        }
        guard day >= HabitsLimits.earliestDay, day <= today.adding(days: 366) else {
            throw HabitsError.invalidField("startDate", "must be from 2000-01-01 to a year from today.")
        }
        return day
    }

    /// Applies an edit's measurable fields: a yes/no habit stays yes/no (as in Loop Habit Tracker, the kind is
    /// chosen once), a measurable one may change its target and unit.
    static func applyMeasure(target: Int64?, unit: String?, to habit: inout HabitRecord) throws {
        guard target != nil || unit != nil else { return }
        guard habit.targetMilli != nil else {
            throw HabitsError.invalidField(
                target != nil ? "target" : "unit", "a yes/no habit cannot become measurable; create a new habit.")
        }
        if let target { habit.targetMilli = target }
        if let unit { habit.unit = unit }
    }
}
