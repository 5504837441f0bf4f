import Foundation
import PlatformKit

/// Household events (a house meeting, a party, the landlord's visit): how their times are read and shown, what an
/// edit may change, who answers what, and when the reminder is due. Pure rules; the store and the job apply them.
///
/// Times come in as RFC 3339 date-times with an offset (`2026-12-05T19:00:00+01:00` or `...Z`): an instant no
/// daylight-saving change can make ambiguous, which every client's date formatter writes. Answers carry the instant
/// (UTC) and the same time on the household's clock (`2026-12-05T19:00`), so every member sees the household's time
/// whatever zone their phone is in.
enum EventRules {
    static let maximumTitle = 100
    static let maximumNote = 1_000
    static let maximumPlace = 200
    /// Years an event may start or end in.
    static let years = 2000...2100
    /// The reminder's lead when the creator names none.
    static let defaultRemindMinutes = 60
    /// The longest lead: a week.
    static let maximumRemindMinutes = 10_080

    /// A member's answer to "are you coming?".
    enum Answer: String, Codable, Sendable, CaseIterable {
        case yes, no, maybe

        /// Reads a client's answer; anything else names the field.
        init(client text: String, field: String = "answer") throws {
            guard let answer = Answer(rawValue: text) else {
                throw HouseholdError.invalidField(field, "must be yes, no or maybe.")
            }
            self = answer
        }
    }

    /// What the creator asks for when creating an event (already checked field by field).
    struct Draft: Sendable, Equatable {
        var title: String
        var note: String?
        var place: String?
        var start: Date
        var end: Date?
        var remindMinutesBefore: Int
    }

    /// What an edit changes: nil leaves a field as it is; `.some(nil)` clears an optional one.
    struct Change: Sendable, Equatable {
        var title: String?
        var note: String??
        var place: String??
        var start: Date?
        var end: Date??
        var remindMinutesBefore: Int?
    }

    // MARK: Checks

    static func title(_ text: String) throws -> String {
        try Validate.text(text, field: "title", max: maximumTitle)
    }

    /// An optional text field (`note`, `place`); empty or blank means none.
    static func optionalText(_ text: String?, field: String, max: Int) throws -> String? {
        try Validate.optionalText(text, field: field, max: max)
    }

    /// The reminder's lead in minutes, 0 (at the start) to a week; the default when absent.
    static func remindMinutes(_ minutes: Int?) throws -> Int {
        guard let minutes else { return defaultRemindMinutes }
        guard (0...maximumRemindMinutes).contains(minutes) else {
            throw HouseholdError.invalidField("remindMinutesBefore", "must be from 0 to \(maximumRemindMinutes).")
        }
        return minutes
    }

    /// An end that is not before the start.
    static func checkOrder(start: Date, end: Date?) throws {
        if let end, end < start { throw HouseholdError.invalidField("end", "must not be before start.") }
    }

    /// Applies `change` to `event` at `now`: the order of start and end is checked again, and a moved start re-arms
    /// the reminder (a new reminder for the new time, even when the old one went out). A new lead alone only moves
    /// the reminder's time: one already sent is not sent again.
    static func apply(_ change: Change, to event: inout EventRecord, now: Date) throws {
        // Compared to the millisecond, as the stores keep instants: the same start sent again is no move.
        let moved = change.start.map { milliseconds($0) != milliseconds(event.startsAt) } ?? false
        if let title = change.title { event.title = title }
        if let note = change.note { event.note = note }
        if let place = change.place { event.place = place }
        if let start = change.start { event.startsAt = start }
        if let end = change.end { event.endsAt = end }
        if let minutes = change.remindMinutesBefore { event.remindMinutesBefore = minutes }
        try checkOrder(start: event.startsAt, end: event.endsAt)
        event.finishesAt = event.endsAt ?? event.startsAt
        event.remindAt = remindAt(start: event.startsAt, minutesBefore: event.remindMinutesBefore)
        if moved { event.remindedAt = nil }
        event.updatedAt = now
    }

    private static func milliseconds(_ instant: Date) -> Int64 {
        Int64((instant.timeIntervalSince1970 * 1_000).rounded())
    }

    // MARK: Reminders

    /// When the reminder is due: `minutesBefore` (already bounded) before the start.
    static func remindAt(start: Date, minutesBefore: Int) -> Date {
        start.addingTimeInterval(-Double(minutesBefore) * 60)
    }

    /// Whether the event's reminder goes out at `now`: not sent yet for this start, not cancelled, its time come, and
    /// the event not begun (a reminder after the start helps nobody).
    static func reminderDue(_ event: EventRecord, now: Date) -> Bool {
        event.remindedAt == nil && event.cancelledAt == nil && event.remindAt <= now && event.startsAt > now
    }

    /// Who is reminded: every member who did not answer no (an unanswered house meeting still concerns everyone).
    static func reminded(members: [String], answers: [String: Answer]) -> [String] {
        members.filter { answers[$0] != .no }
    }

    /// A notice's text about an event: `what` ("Coming up", "Cancelled"), the title, and the start on the household's
    /// clock ("Coming up: House meeting, 2026-12-05 at 19:00.").
    static func noticeText(_ what: String, title: String, start: Date, timeZone: String) -> String {
        let local = localTime(start, timeZone: timeZone)
        return "\(what): \(title), \(local.prefix(10)) at \(local.suffix(5))."
    }

    // MARK: Times

    /// Reads an RFC 3339 date-time with an offset (`2026-12-05T19:00:00+01:00`, `2026-12-05T18:00:00.5Z`), to the
    /// millisecond as the stores keep it, in `years`; anything else is a problem naming `field`.
    static func instant(_ text: String, field: String) throws -> Date {
        guard let instant = RFC3339.instant(text) else {
            throw HouseholdError.invalidField(
                field, "must be a date-time with an offset, such as 2026-12-05T19:00:00+01:00.")
        }
        let year = LocalDay(instant, in: .gmt).year
        guard years.contains(year) else {
            throw HouseholdError.invalidField(field, "must be in the years \(years.lowerBound) to \(years.upperBound).")
        }
        return instant
    }

    /// `instant` on the clock of the zone named `timeZone` (UTC when unknown), as `YYYY-MM-DDTHH:MM`.
    static func localTime(_ instant: Date, timeZone: String) -> String {
        let zone = TimeZone(identifier: timeZone) ?? .gmt
        let day = LocalDay(instant, in: zone)
        let seconds = Int((instant.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: instant))).rounded(.down))
        let minuteOfDay = ((seconds % 86_400 + 86_400) % 86_400) / 60
        return String(format: "%@T%02d:%02d", day.description, minuteOfDay / 60, minuteOfDay % 60)
    }
}

/// The strict RFC 3339 `date-time` (section 5.6): `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`.
enum RFC3339 {
    /// The instant `text` names, the fraction cut to milliseconds; nil for anything else (a missing offset, a day
    /// that does not exist, an hour past 23).
    static func instant(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard (20...40).contains(bytes.count) else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let day = LocalDay(String(decoding: bytes[0..<10], as: UTF8.self)),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            let hour = digits(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            bytes[16] == UInt8(ascii: ":"), let second = digits(17, 2),
            hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var milliseconds = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            var count = 0
            while index < bytes.count, let digit = digits(index, 1) {
                if count < 3 { milliseconds = milliseconds * 10 + digit }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            for _ in count..<max(count, 3) { milliseconds *= 10 }
        }
        guard index < bytes.count else { return nil }
        let offsetSeconds: Int
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            guard index + 1 == bytes.count else { return nil }
            offsetSeconds = 0
        } else {
            let sign = bytes[index]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), index + 6 == bytes.count,
                let hours = digits(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"),
                let minutes = digits(index + 4, 2), hours < 24, minutes < 60
            else { return nil }
            offsetSeconds = (hours * 3_600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        let seconds = day.number * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1_000)
    }
}
