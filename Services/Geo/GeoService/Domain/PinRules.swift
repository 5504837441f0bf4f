import Foundation

/// The bounds of pins and their photos.
enum PinLimits {
    /// A user keeps at most this many pins (a travel map, not a GPS log), and colours as many.
    static let pinsPerUser = 10_000
    static let photosPerPin = 10
    static let photoBytes = 4 << 20
    static let placeNameLength = 200
    static let noteLength = 2_000
    /// Pinning a point within this many metres of one of my pins is pinning that place again (GPS jitter and a
    /// tap on the same map spot land a few metres apart; two places worth two pins are rarely this close).
    static let samePlaceRadius = 25.0
}

/// How another user stands to the viewer, as the social graph says.
struct Standing: Sendable, Equatable {
    var friends: Bool
    var blocked: Bool
}

/// Who may see which pin: the owner always, anyone else unless a block stands between them (either way).
/// A hidden pin reads as a missing one, so a blocked user learns nothing.
enum PinVisibility {
    /// How the owner's pins stand to the viewer; `standing` is `nil` for the viewer's own or an unknown user.
    static func category(owner: String, viewer: String, standing: Standing?) throws(GeoError) -> PinCategory {
        if owner == viewer { return .own }
        guard standing?.blocked != true else { throw .notFound("The pin") }
        return standing?.friends == true ? .friend : .other
    }

    /// A visit date as `YYYY-MM-DD`, a real day, not after tomorrow (UTC; the visitor's day may be ahead).
    static func visitDate(_ value: String?, now: Date) throws(GeoError) -> String? {
        guard let value, !value.isEmpty else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard value.count == 10, let date = formatter.date(from: value), formatter.string(from: date) == value
        else {
            throw .invalidField("visitedOn", "must be a date as YYYY-MM-DD.")
        }
        guard date <= now.addingTimeInterval(86_400), value >= "1900-01-01" else {
            throw .invalidField("visitedOn", "must not be in the future.")
        }
        return value
    }
}
