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
    /// Receives the background jobs once they are built, so tests can run them at the manual clock's time.
    public var jobsBuilt: (@Sendable (HouseholdJobs) -> Void)?
    /// How often the service checks whether a household's month is ending.
    public var monthEndCheckInterval: Duration

    public init(
        settings: ServiceSettings, notificationsURL: String? = nil, eventSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil, jobsBuilt: (@Sendable (HouseholdJobs) -> Void)? = nil,
        monthEndCheckInterval: Duration = .seconds(900)
    ) {
        self.settings = settings
        self.notificationsURL = notificationsURL
        self.eventSink = eventSink
        self.userDirectory = userDirectory
        self.jobsBuilt = jobsBuilt
        self.monthEndCheckInterval = monthEndCheckInterval
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .household, reader: reader),
            notificationsURL: reader.string(forKey: "notifications.url"))
    }
}
