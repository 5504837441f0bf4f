import Foundation
import Hummingbird
import PlatformKit

/// An event as every route and live event shows it: the instants (UTC) and the same times on the household's clock.
struct EventView: ResponseEncodable, Sendable {
    struct RSVP: Encodable, Sendable {
        var userId: String
        /// yes, no or maybe.
        var answer: String
    }

    var id: String
    var creatorId: String
    var title: String
    var note: String?
    var place: String?
    var start: Date
    var end: Date?
    /// `start` on the household's clock, `YYYY-MM-DDTHH:MM`.
    var localStart: String
    var localEnd: String?
    /// The household's IANA time zone, which `localStart` and `localEnd` are in.
    var timeZone: String
    var remindMinutesBefore: Int
    /// scheduled or cancelled (a cancelled event stays listed, marked).
    var status: String
    var cancelledAt: Date?
    /// The members' answers, in member id order; members who did not answer are absent.
    var rsvps: [RSVP]
    var createdAt: Date
    var updatedAt: Date

    init(_ stored: StoredEvent) {
        let event = stored.event
        (id, creatorId, title, note, place, start, end) = (
            event.id, event.creatorId, event.title, event.note, event.place, event.startsAt, event.endsAt
        )
        localStart = EventRules.localTime(event.startsAt, timeZone: stored.timeZone)
        localEnd = event.endsAt.map { EventRules.localTime($0, timeZone: stored.timeZone) }
        (timeZone, remindMinutesBefore) = (stored.timeZone, event.remindMinutesBefore)
        status = event.cancelledAt == nil ? "scheduled" : "cancelled"
        cancelledAt = event.cancelledAt
        rsvps = stored.answers.sorted { $0.key < $1.key }.map { RSVP(userId: $0.key, answer: $0.value.rawValue) }
        (createdAt, updatedAt) = (event.createdAt, event.updatedAt)
    }
}

/// The bodies the event routes read, checked into the domain's terms with each problem naming the field.
enum EventRequests {
    struct Create: Decodable {
        var title: String
        /// RFC 3339 with an offset.
        var start: String
        var end: String?
        var note: String?
        var place: String?
        var remindMinutesBefore: Int?

        func draft() throws -> EventRules.Draft {
            let start = try EventRules.instant(self.start, field: "start")
            let end = try self.end.map { try EventRules.instant($0, field: "end") }
            try EventRules.checkOrder(start: start, end: end)
            return EventRules.Draft(
                title: try EventRules.title(title),
                note: try EventRules.optionalText(note, field: "note", max: EventRules.maximumNote),
                place: try EventRules.optionalText(place, field: "place", max: EventRules.maximumPlace),
                start: start, end: end, remindMinutesBefore: try EventRules.remindMinutes(remindMinutesBefore))
        }
    }

    /// An edit: absent fields stay; `null` (or an empty text) clears `end`, `note` or `place`.
    struct Edit: Decodable {
        var title: String?
        var start: String?
        var end: String??
        var note: String??
        var place: String??
        var remindMinutesBefore: Int?

        enum CodingKeys: String, CodingKey { case title, start, end, note, place, remindMinutesBefore }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            func clearable(_ key: CodingKeys) throws -> String?? {
                fields.contains(key) ? .some(try fields.decodeIfPresent(String.self, forKey: key)) : nil
            }
            title = try fields.decodeIfPresent(String.self, forKey: .title)
            start = try fields.decodeIfPresent(String.self, forKey: .start)
            (end, note, place) = (try clearable(.end), try clearable(.note), try clearable(.place))
            remindMinutesBefore = try fields.decodeIfPresent(Int.self, forKey: .remindMinutesBefore)
        }

        func change() throws -> EventRules.Change {
            func text(_ value: String??, _ field: String, _ max: Int) throws -> String?? {
                try value.map { try EventRules.optionalText($0, field: field, max: max) }
            }
            return EventRules.Change(
                title: try title.map(EventRules.title),
                note: try text(note, "note", EventRules.maximumNote),
                place: try text(place, "place", EventRules.maximumPlace),
                start: try start.map { try EventRules.instant($0, field: "start") },
                end: try end.map { try $0.flatMap { try EventRules.instant($0, field: "end") } },
                remindMinutesBefore: try remindMinutesBefore.map { try EventRules.remindMinutes($0) })
        }
    }

    struct Answer: Decodable {
        /// yes, no or maybe.
        var answer: String
    }
}
