import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

struct HabitView: ResponseEncodable, Sendable {
    var id: String
    var title: String
    var reason: String
    var weekdays: [String]
    var startDate: String
    var status: HabitProgress.Status
    /// A measurable habit's daily target and unit; absent for a yes/no habit.
    var target: Double?
    var unit: String?
    var reminder: ReminderView?
    var archived: Bool
    var createdAt: Date
    var updatedAt: Date

    struct ReminderView: Encodable, Sendable {
        /// `HH:MM` in the owner's time zone.
        var time: String
    }

    init(_ habit: HabitRecord, status: HabitProgress.Status) {
        id = habit.id
        title = habit.title
        reason = habit.reason
        weekdays = habit.schedule.names
        startDate = habit.startDate
        self.status = status
        target = habit.targetMilli.map(Amounts.number)
        unit = habit.targetMilli == nil ? nil : habit.unit ?? ""
        reminder = habit.reminderMinute.map { ReminderView(time: ReminderRules.text($0)) }
        archived = habit.archivedAt != nil
        createdAt = habit.createdAt
        updatedAt = habit.updatedAt
    }
}

/// My habits; `message` invites a first habit when there is none.
struct HabitList: ResponseEncodable, Sendable {
    var items: [HabitView]
    var nextCursor: String?
    var message: String?
}

/// A habit due today (`GET /v1/habits/today`): the habit's fields, whether it is done today (a measurable habit:
/// today's value meets its target), today's event and value, and whether today is skipped or paused.
struct TodayHabitView: Encodable, Sendable {
    var habit: HabitView
    var todayEventId: String?
    var doneToday: Bool
    var todayValue: Double?
    var excusedToday: Bool

    init(_ entry: HabitWithStatus) {
        habit = HabitView(entry.habit, status: entry.status)
        todayEventId = entry.todayEventID.map(String.init)
        doneToday = entry.doneToday
        todayValue = entry.habit.targetMilli == nil ? nil : entry.todayValue.map(Amounts.number)
        excusedToday = entry.excusedToday
    }

    enum CodingKeys: String, CodingKey {
        case doneToday, todayEventId, todayValue, excusedToday
    }

    /// The habit's own keys, then those of today, in one object.
    func encode(to encoder: any Encoder) throws {
        try habit.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(doneToday, forKey: .doneToday)
        try container.encode(todayEventId, forKey: .todayEventId)
        try container.encodeIfPresent(todayValue, forKey: .todayValue)
        try container.encode(excusedToday, forKey: .excusedToday)
    }
}

/// The habits due today; `message` when none is due or all are done.
struct TodayList: ResponseEncodable, Sendable {
    var items: [TodayHabitView]
    var nextCursor: String?
    var message: String?
}

/// Another user's habit as a follower sees it: title, schedule and status, nothing private.
struct FollowedHabitView: Encodable, Sendable {
    var id: String
    var ownerId: String
    var title: String
    var weekdays: [String]
    var status: HabitProgress.Status
}

struct Coordinate: Codable, Sendable, Equatable {
    var latitude: Double
    var longitude: Double
}

struct EventView: ResponseEncodable, Sendable {
    var id: String
    var habitId: String
    var habitTitle: String
    var userId: String
    var date: String
    var comment: String?
    /// A measurable habit's value for the day.
    var value: Double?
    var location: Coordinate?
    /// Where to fetch the photo (through the gateway), if the event has one.
    var photoUrl: String?
    var createdAt: Date
    var updatedAt: Date

    init(_ row: EventListRecord) {
        id = String(row.id)
        habitId = row.habitId
        habitTitle = row.habitTitle
        userId = row.userId
        date = row.day
        comment = row.comment
        value = row.valueMilli.map(Amounts.number)
        if let latitude = row.latitude, let longitude = row.longitude {
            location = Coordinate(latitude: latitude, longitude: longitude)
        }
        photoUrl = row.photoType == nil ? nil : HabitsPaths.events + "/\(row.id)/photo"
        createdAt = row.createdAt
        updatedAt = row.updatedAt
    }
}

/// RFC 7946 FeatureCollection of located events (longitude first), with the page cursor as a foreign member.
struct EventMap: ResponseEncodable, Sendable {
    struct Geometry: Encodable, Sendable {
        var type = "Point"
        var coordinates: [Double]
    }

    struct Feature: Encodable, Sendable {
        var type = "Feature"
        var id: String
        var geometry: Geometry
        var properties: EventView
    }

    var type = "FeatureCollection"
    var features: [Feature]
    var nextCursor: String?

    init(_ page: Page<EventView>) {
        features = page.items.compactMap { event in
            event.location.map {
                Feature(id: event.id, geometry: Geometry(coordinates: [$0.longitude, $0.latitude]), properties: event)
            }
        }
        nextCursor = page.nextCursor
    }
}

extension HabitProgress.Status: ResponseEncodable {}
