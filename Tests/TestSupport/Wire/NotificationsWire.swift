import Foundation

// Typed answers of the notifications service (Services/Notifications/NotificationsService/Controllers/
// NotificationsDTOs.swift, the controllers' own answer types and the live stream's payloads), as the stack tests
// read them.

/// A notice as its recipient sees it (`NotificationView`); also the data of a `notification.created` event.
public struct WireNotification: Decodable, Sendable {
    public var id: String
    public var kind: String
    public var text: String
    public var link: String
    public var producer: String
    public var createdAt: Date
    public var readAt: Date?
    public var read: Bool
}

/// How many of the user's notices are unread (`UnreadCount`).
public struct WireUnreadCount: Decodable, Sendable {
    public var unread: Int
}

/// How many notices marking all read changed (`Marked`).
public struct WireMarked: Decodable, Sendable {
    public var marked: Int
}

/// What a producer's post did (`DeliveryReport`, internal).
public struct WireDeliveryReport: Decodable, Sendable {
    /// Recipients who got a new notice.
    public var created: Int
    /// Recipients who already had it from an earlier post with the same key.
    public var duplicates: Int
}

/// A registered push device (`DeviceView`); `environment` is `production` or `sandbox`.
public struct WireDevice: Decodable, Sendable {
    public var token: String
    public var environment: String
    public var createdAt: Date
}

/// The user's notice preferences (`PreferencesBody`).
public struct WirePreferences: Decodable, Sendable {
    /// Hours in which nothing is pushed, in a time zone.
    public struct QuietHours: Decodable, Sendable {
        public var start: String
        public var end: String
        public var timeZone: String
    }
    public var disabledKinds: [String]
    public var quietHours: QuietHours?
}

/// The data of a `notification.read` event: the ids read, or all of them.
public struct WireReadEvent: Decodable, Sendable {
    public var ids: [String]?
    public var all: Bool
}

extension EventStreamClient.Message {
    /// The event's data decoded as `T`; a mismatch fails with the field's coding path and the data.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try APIResponse(status: 200, headers: [:], body: Data((data ?? "").utf8)).decode(T.self)
    }
}
