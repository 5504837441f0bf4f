import Foundation
import PlatformKit

/// Trips (Polarsteps'): a named journey from one day to another that gathers its owner's pins visited in between,
/// by day, private or shared with friends, with one of its pins' photos as its cover. Only the owner changes it.
enum Trips {
    static let nameLength = 120
    /// A user keeps at most this many trips.
    static let tripsPerUser = 500
    /// A trip lasts at most this many days (ten years: a long journey, not a life).
    static let longestDays = 3_660

    enum Visibility: String, Codable, Sendable {
        case `private`, friends
    }

    /// A day as `YYYY-MM-DD`, a real one between 1900 and 2999 (trips may be planned ahead).
    static func day(_ value: String, field: String) throws(GeoError) -> String {
        guard value.count == 10, let day = LocalDay(value), day.description == value, value >= "1900-01-01",
            value <= "2999-12-31"
        else { throw .invalidField(field, "must be a date as YYYY-MM-DD.") }
        return value
    }

    /// The days of a trip, checked together: the end not before the start, at most ``longestDays`` apart.
    static func checkSpan(startsOn: String, endsOn: String) throws(GeoError) {
        guard endsOn >= startsOn else { throw .invalidField("endsOn", "must not be before startsOn.") }
        guard let start = LocalDay(startsOn), let end = LocalDay(endsOn),
            start.days(until: end) < longestDays
        else { throw .invalidField("endsOn", "a trip lasts at most \(longestDays) days.") }
    }

    static func visibility(_ value: String) throws(GeoError) -> Visibility {
        guard let visibility = Visibility(rawValue: value) else {
            throw .invalidField("visibility", "must be private or friends.")
        }
        return visibility
    }

    /// Whether the viewer may see the trip: its owner always, the owner's friends when it is shared with them.
    static func mayRead(owner: String, viewer: String, visibility: Visibility, standing: Standing?) -> Bool {
        owner == viewer || (visibility == .friends && standing?.friends == true && standing?.blocked != true)
    }

    /// The owner's pins inside the trip, by day then id: a pin's day is its `visitedOn`, else the day it was
    /// pinned (UTC), as the visited summary counts it.
    static func pinsInside(_ pins: [PinRecord], startsOn: String, endsOn: String) -> [(day: String, pin: PinRecord)] {
        pins.map { (day: $0.visitedOn ?? LocalDay($0.createdAt, in: .gmt).description, pin: $0) }
            .filter { $0.day >= startsOn && $0.day <= endsOn }
            .sorted { ($0.day, $0.pin.id ?? 0) < ($1.day, $1.pin.id ?? 0) }
    }
}
