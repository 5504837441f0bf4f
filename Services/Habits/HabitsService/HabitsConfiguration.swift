import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the habits service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `SOCIAL_URL` | the social service, for who follows whom (approved) | http://127.0.0.1:8082 |
/// | `NOTIFICATIONS_URL` | the notifications service, for habit reminders (push and inbox) | unset: notices are logged |
/// | and those of ``ServiceSettings`` | | |
public struct HabitsConfiguration: Sendable {
    public var settings: ServiceSettings
    /// The social service.
    public var socialURL: ServiceAddress
    /// The notifications service; `nil`: notices are logged.
    public var notificationsURL: ServiceAddress?
    /// Replaces the social graph lookups (tests whose social service starts later, or a fake): who a user follows
    /// with the other's approval, the only people whose habits and events they may see.
    public var followGraph: (any FollowingIDsLookup)?
    /// Replaces the notices' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Receives the background jobs once they are built, so tests can run them at the manual clock's time.
    public var jobsBuilt: (@Sendable (HabitsJobs) -> Void)?
    /// How often the service looks for reminders that are due (a reminder goes out at most this late).
    public var reminderCheckInterval: Duration

    public init(
        settings: ServiceSettings, socialURL: ServiceAddress = .local(.social),
        notificationsURL: ServiceAddress? = nil, followGraph: (any FollowingIDsLookup)? = nil,
        noticeSink: (any NoticeSink)? = nil,
        jobsBuilt: (@Sendable (HabitsJobs) -> Void)? = nil, reminderCheckInterval: Duration = .seconds(60)
    ) {
        self.settings = settings
        self.socialURL = socialURL
        self.notificationsURL = notificationsURL
        self.followGraph = followGraph
        self.noticeSink = noticeSink
        self.jobsBuilt = jobsBuilt
        self.reminderCheckInterval = reminderCheckInterval
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .habits, reader: reader),
            socialURL: reader.address(of: .social), notificationsURL: reader.optionalAddress(of: .notifications))
    }
}
