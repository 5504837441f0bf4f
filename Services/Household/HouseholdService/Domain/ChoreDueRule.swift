import Foundation
import PlatformKit

/// When a chore's assignee is reminded that it falls due, like OurHome's due-today reminder: on its due day in the
/// household's zone, from 09:00 local. The reminder is sent until 21:00 local and not after: a service that was
/// down all that time does not remind anyone of yesterday's chore.
enum ChoreDueRule {
    /// The local hour the reminder goes out.
    static let hour = 9
    /// The local hour from which a reminder not yet sent is dropped.
    static let lastHour = 21

    /// Whether a chore due on `dueOn` (`YYYY-MM-DD`) is to be reminded at `now` in `zone`.
    static func isDue(_ dueOn: String, now: Date, zone: TimeZone) -> Bool {
        guard LocalDay(now, in: zone).description == dueOn else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return (hour..<lastHour).contains(calendar.component(.hour, from: now))
    }

    /// Every day that is today somewhere at `now` (zones run from UTC-12 to UTC+14): the due days to look at.
    static func candidateDays(now: Date) -> [String] {
        let today = LocalDay(now, in: .gmt)
        return [today.adding(days: -1), today, today.adding(days: 1)].map(\.description)
    }

    /// The notice's text.
    static func text(chore: String) -> String { "Due today: \(chore)" }
}
