import Foundation

/// A row of `household_events`: one event of a household's calendar. Cancelled events stay (``cancelledAt`` set), so
/// members who saw one learn it is off rather than seeing it vanish.
struct EventRecord: Codable, Sendable, Equatable {
    var id: String
    var householdId: String
    var creatorId: String
    var title: String
    var note: String?
    var place: String?
    var startsAt: Date
    var endsAt: Date?
    /// The end, or the start of an event without one: the lists split upcoming from past by it.
    var finishesAt: Date
    var remindMinutesBefore: Int
    /// When the reminder is due (``EventRules/remindAt(start:minutesBefore:)``).
    var remindAt: Date
    /// When the reminder for the current start was claimed; cleared when the start moves.
    var remindedAt: Date?
    var cancelledAt: Date?
    var createdAt: Date
    var updatedAt: Date
}

extension EventRecord {
    /// A new event as `draft` asks for it, its reminder armed.
    init(_ draft: EventRules.Draft, id: String, householdID: String, creatorID: String, now: Date) {
        self.init(
            id: id, householdId: householdID, creatorId: creatorID, title: draft.title, note: draft.note,
            place: draft.place, startsAt: draft.start, endsAt: draft.end, finishesAt: draft.end ?? draft.start,
            remindMinutesBefore: draft.remindMinutesBefore,
            remindAt: EventRules.remindAt(start: draft.start, minutesBefore: draft.remindMinutesBefore),
            remindedAt: nil, cancelledAt: nil, createdAt: now, updatedAt: now)
    }
}

/// An event with its members' answers and the household's time zone, as the routes show it.
struct StoredEvent: Sendable {
    var event: EventRecord
    /// Member id -> answer, for those who answered.
    var answers: [String: EventRules.Answer]
    var timeZone: String
}

/// An event whose reminder the job claimed, with whom to remind.
struct ClaimedEventReminder: Sendable {
    var event: EventRecord
    var timeZone: String
    var recipients: [String]
}
