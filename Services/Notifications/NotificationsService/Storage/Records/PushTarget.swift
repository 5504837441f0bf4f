import Foundation

/// A new notice for one recipient whose push preferences allowed it, with the devices to push to.
struct PushTarget: Sendable {
    var notification: NotificationRecord
    var devices: [DeviceRecord]
}

extension PushTarget {
    /// The pushes for `created` notices: each recipient with devices whose preferences allow the kind at `now`.
    static func targets(
        _ created: [NotificationRecord], devices: [String: [DeviceRecord]], preferences: [String: Preferences],
        now: Date
    ) -> [PushTarget] {
        created.compactMap { row in
            guard let targets = devices[row.recipientId],
                (preferences[row.recipientId] ?? Preferences()).allowsPush(of: row.kind, at: now)
            else { return nil }
            return PushTarget(notification: row, devices: targets)
        }
    }
}
