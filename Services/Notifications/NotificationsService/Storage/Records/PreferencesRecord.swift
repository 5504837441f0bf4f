import Foundation
import PlatformKit

/// A row of `preferences`; `disabledKinds` is a JSON array.
struct PreferencesRecord: Codable, Sendable, Equatable {
    var userId: String
    var disabledKinds: String
    var quietStartMinute: Int?
    var quietEndMinute: Int?
    var timeZone: String?
    var updatedAt: Date
}

extension PreferencesRecord {
    var preferences: Preferences {
        let kinds = (try? PlatformJSON.decoder.decode([String].self, from: Data(disabledKinds.utf8))) ?? []
        var preferences = Preferences(disabledKinds: Set(kinds))
        if let start = quietStartMinute, let end = quietEndMinute,
            let zone = timeZone.flatMap({ TimeZone(identifier: $0) })
        {
            preferences.quietHours = QuietHours(startMinute: start, endMinute: end, timeZone: zone)
        }
        return preferences
    }

    init(userID: String, preferences: Preferences, now: Date) {
        // The stored text is what a plain JSONEncoder wrote: for an array of dotted names (a-z, 0-9, '.', '_'),
        // PlatformJSON's sorted keys and dates change nothing, so rows old and new read alike.
        let kinds = (try? PlatformJSON.encoder.encode(preferences.disabledKinds.sorted())) ?? Data("[]".utf8)
        self.init(
            userId: userID, disabledKinds: String(decoding: kinds, as: UTF8.self),
            quietStartMinute: preferences.quietHours?.startMinute, quietEndMinute: preferences.quietHours?.endMinute,
            timeZone: preferences.quietHours?.timeZone.identifier, updatedAt: now)
    }
}
