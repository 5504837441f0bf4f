import Foundation
import GRDB
import ServiceKit

/// What every record of this service is.
protocol HabitsRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {}

/// A row of `preferences`: a user's IANA time zone ("today" is computed in it).
struct PreferenceRow: HabitsRecord {
    static let databaseTableName = "preferences"
    var userId: String
    var timeZone: String
}

/// A row of `habits`.
struct HabitRow: HabitsRecord {
    static let databaseTableName = "habits"
    var id: String
    var userId: String
    var title: String
    var reason: String
    var weekdays: Int
    var startDate: String
    var createdAt: Date
    var updatedAt: Date

    var schedule: Weekdays { Weekdays(bits: weekdays) }
    var start: Day { Day(startDate) ?? Day(number: 0) }
}

/// A row of `events`, with its habit's title when read for a list.
struct EventRow: HabitsRecord {
    static let databaseTableName = "events"
    var id: Int64?
    var habitId: String
    var userId: String
    var day: String
    var comment: String?
    var latitude: Double?
    var longitude: Double?
    var photoType: String?
    var idempotencyKey: String?
    var createdAt: Date
    var updatedAt: Date
}

/// An event joined with its habit's title, for history lists.
struct EventListRow: Codable, FetchableRecord, EncodableRecord, SnakeCaseColumns, Sendable {
    var id: Int64
    var habitId: String
    var habitTitle: String
    var userId: String
    var day: String
    var comment: String?
    var latitude: Double?
    var longitude: Double?
    var photoType: String?
    var createdAt: Date
    var updatedAt: Date
}
