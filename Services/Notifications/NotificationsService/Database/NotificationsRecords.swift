import Foundation
import GRDB
import ServiceKit

/// What every record of this service is.
protocol NotificationsRecord: Codable, FetchableRecord, PersistableRecord, SnakeCaseColumns, Sendable {}

/// A row of `notifications`.
struct NotificationRow: NotificationsRecord {
    static let databaseTableName = "notifications"
    var number: Int64?
    var id: String
    var recipientId: String
    var kind: String
    var text: String
    var link: String
    var producer: String
    var idempotencyKey: String
    var createdAt: Date
    var readAt: Date?
}

/// A row of `devices`.
struct DeviceRow: NotificationsRecord {
    static let databaseTableName = "devices"
    var token: String
    var userId: String
    var sessionId: String
    var environment: String
    var createdAt: Date
}

/// A row of `preferences`; `disabledKinds` is a JSON array.
struct PreferencesRow: NotificationsRecord {
    static let databaseTableName = "preferences"
    var userId: String
    var disabledKinds: String
    var quietStartMinute: Int?
    var quietEndMinute: Int?
    var timeZone: String?
    var updatedAt: Date
}

extension PreferencesRow {
    var preferences: Preferences {
        let kinds = (try? JSONDecoder().decode([String].self, from: Data(disabledKinds.utf8))) ?? []
        var preferences = Preferences(disabledKinds: Set(kinds))
        if let start = quietStartMinute, let end = quietEndMinute,
            let zone = timeZone.flatMap({ TimeZone(identifier: $0) })
        {
            preferences.quietHours = QuietHours(startMinute: start, endMinute: end, timeZone: zone)
        }
        return preferences
    }

    init(userID: String, preferences: Preferences, now: Date) {
        let kinds = (try? JSONEncoder().encode(preferences.disabledKinds.sorted())) ?? Data("[]".utf8)
        self.init(
            userId: userID, disabledKinds: String(decoding: kinds, as: UTF8.self),
            quietStartMinute: preferences.quietHours?.startMinute, quietEndMinute: preferences.quietHours?.endMinute,
            timeZone: preferences.quietHours?.timeZone.identifier, updatedAt: now)
    }
}
