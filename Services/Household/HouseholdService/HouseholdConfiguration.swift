import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the household service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `NOTIFICATIONS_URL` | the notifications service, for notices to members | unset: notices are logged |
/// | and those of ``ServiceSettings`` | | |
public struct HouseholdConfiguration: Sendable {
    public var settings: ServiceSettings
    public var notificationsURL: String?
    /// Replaces the notices' destination (tests record them).
    public var eventSink: (any NoticeSink)?
    /// Replaces the identity lookups (unit tests use a fake).
    public var userDirectory: (any UserDirectory)?

    public init(
        settings: ServiceSettings, notificationsURL: String? = nil, eventSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil
    ) {
        self.settings = settings
        self.notificationsURL = notificationsURL
        self.eventSink = eventSink
        self.userDirectory = userDirectory
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .household, reader: reader),
            notificationsURL: reader.string(forKey: "notifications.url"))
    }
}
