import Foundation
import PlatformKit

/// A user's push preferences. They decide only whether a phone buzzes: the inbox keeps everything.
struct Preferences: Sendable, Equatable {
    /// Notice kinds (e.g. `social.friend_request`) the user does not want pushed.
    var disabledKinds: Set<String> = []
    var quietHours: QuietHours?

    /// Whether a notice of `kind` arriving at `date` may be pushed.
    func allowsPush(of kind: String, at date: Date) -> Bool {
        !disabledKinds.contains(kind) && !(quietHours?.contains(date) ?? false)
    }
}

/// A daily window, in the user's own time zone, when nothing is pushed; it may wrap past midnight (22:00-07:00).
struct QuietHours: Sendable, Equatable {
    /// Minutes after local midnight, 0 ..< 1440.
    var startMinute: Int
    var endMinute: Int
    var timeZone: TimeZone

    /// Parses `HH:MM` bounds and an IANA zone; a bad value is ``NotificationsError/invalidField(_:_:)`` naming
    /// its field.
    init(start: String, end: String, timeZone identifier: String) throws {
        guard TimeZoneNames.isValid(identifier), let zone = TimeZone(identifier: identifier) else {
            throw NotificationsError.invalidField(
                "quietHours.timeZone", "must be an IANA time zone such as Europe/Paris.")
        }
        self.startMinute = try Self.minute(of: start, field: "quietHours.start")
        self.endMinute = try Self.minute(of: end, field: "quietHours.end")
        self.timeZone = zone
        guard startMinute != endMinute else {
            throw NotificationsError.invalidField("quietHours.end", "must differ from the start.")
        }
    }

    init(startMinute: Int, endMinute: Int, timeZone: TimeZone) {
        self.startMinute = startMinute
        self.endMinute = endMinute
        self.timeZone = timeZone
    }

    /// Whether `date` falls in the window, read on the wall clock of the user's zone (so daylight saving moves
    /// the window with the user, as they expect).
    func contains(_ date: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let minute = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return startMinute < endMinute
            ? (startMinute..<endMinute).contains(minute)
            : minute >= startMinute || minute < endMinute
    }

    var start: String { Self.format(startMinute) }
    var end: String { Self.format(endMinute) }

    private static func minute(of text: String, field: String) throws -> Int {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hour = Int(parts[0]),
            let minute = Int(parts[1]),
            (0..<24).contains(hour), (0..<60).contains(minute)
        else {
            throw NotificationsError.invalidField(field, "must be a time of day as HH:MM, from 00:00 to 23:59.")
        }
        return hour * 60 + minute
    }

    private static func format(_ minute: Int) -> String {
        String(format: "%02d:%02d", minute / 60, minute % 60)
    }
}
