import Foundation

// Typed answers of the habits service (Services/Habits/HabitsService/Controllers/HabitsDTOs.swift and the
// controllers' own answer types), as the stack tests read them.

/// A habit as its owner sees it (`HabitView`).
public struct WireHabit: Decodable, Sendable {
    public var id: String
    public var title: String
    public var reason: String
    public var weekdays: [String]
    public var startDate: String
    /// `on_track`, `behind` or `no_events_yet`.
    public var status: String
    public var createdAt: Date
    public var updatedAt: Date
}

/// My habits (`HabitList`); `message` invites a first habit.
public struct WireHabitList: Decodable, Sendable {
    public var items: [WireHabit]
    public var message: String?
}

/// A habit due today (`TodayHabitView`): the habit and whether, and by which event, it is done today.
public struct WireTodayHabit: Decodable, Sendable {
    public var id: String
    public var title: String
    public var status: String
    public var doneToday: Bool
    public var todayEventId: String?
}

/// Every habit due today (`TodayList`); `message` when none is due or all are done.
public struct WireTodayList: Decodable, Sendable {
    public var items: [WireTodayHabit]
    public var message: String?
}

/// Another user's habit as a follower sees it (`FollowedHabitView`): nothing private.
public struct WireFollowedHabit: Decodable, Sendable {
    public var id: String
    public var ownerId: String
    public var title: String
    public var weekdays: [String]
    public var status: String
}

/// A position in degrees.
public struct WireCoordinate: Decodable, Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
}

/// One recorded habit event (`EventView`).
public struct WireHabitEvent: Decodable, Sendable {
    public var id: String
    public var habitId: String
    public var habitTitle: String
    public var userId: String
    public var date: String
    public var comment: String?
    public var location: WireCoordinate?
    /// Where to fetch the photo through the gateway, when the event has one.
    public var photoUrl: String?
    public var createdAt: Date
    public var updatedAt: Date
}

/// The history map (`EventMap`): an RFC 7946 FeatureCollection with the page cursor as a foreign member.
public struct WireHabitEventMap: Decodable, Sendable {
    public struct Feature: Decodable, Sendable {
        public var type: String
        public var id: String
        public var geometry: WireGeoJSONPoint
        public var properties: WireHabitEvent
    }

    public var type: String
    public var features: [Feature]
    public var nextCursor: String?
}

/// A habit's statistics (`StatisticsController.Statistics`).
public struct WireHabitStatistics: Decodable, Sendable {
    public struct Strength: Decodable, Sendable {
        public var score: Double
        public var change30Days: Double
        public var halfLifeDueDays: Double
        public var latestDueDayWeight: Double
        public var explanation: String
    }

    public struct Week: Decodable, Sendable {
        public var weekStart: String
        public var completions: Int
    }

    public var habitId: String
    public var from: String
    public var to: String
    public var dueDays: Int
    public var completedDueDays: Int
    public var completionRate: Double
    public var currentStreak: Int
    public var bestStreak: Int
    public var strength: Strength
    public var weeks: [Week]
}
