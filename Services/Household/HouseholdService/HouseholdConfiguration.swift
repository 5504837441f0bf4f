import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the household service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `SOCIAL_URL` | the social service, for blocks (no invitation between two people where either blocked the other) | http://127.0.0.1:8082 |
/// | `NOTIFICATIONS_URL` | the notifications service, for notices to members | unset: notices are logged |
/// | and those of ``ServiceSettings`` | | |
public struct HouseholdConfiguration: Sendable {
    public var settings: ServiceSettings
    /// The social service.
    public var socialURL: ServiceAddress
    /// The notifications service; `nil`: notices are logged.
    public var notificationsURL: ServiceAddress?
    /// Replaces the social graph lookups.
    public var socialGraph: (any SocialRelationshipLookup)?
    /// Replaces the notices' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Replaces the identity lookups (unit tests use a fake).
    public var userDirectory: (any UserDirectory)?
    /// Receives the background jobs once they are built, so tests can run them at the manual clock's time.
    public var jobsBuilt: (@Sendable (HouseholdJobs) -> Void)?
    /// How often the service checks whether a household's month is ending.
    public var monthEndCheckInterval: Duration
    /// How often the service looks for event reminders that are due (a reminder goes out at most this late).
    public var eventReminderCheckInterval: Duration
    /// How often the service looks for chores falling due (a due reminder goes out at most this long after 09:00).
    public var choreReminderCheckInterval: Duration
    /// How often the service looks for recurring bills whose day has come (a bill is made at most this late).
    public var recurringBillCheckInterval: Duration

    public init(
        settings: ServiceSettings, socialURL: ServiceAddress = .local(.social),
        notificationsURL: ServiceAddress? = nil, noticeSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil, socialGraph: (any SocialRelationshipLookup)? = nil,
        jobsBuilt: (@Sendable (HouseholdJobs) -> Void)? = nil, monthEndCheckInterval: Duration = .seconds(900),
        eventReminderCheckInterval: Duration = .seconds(60), choreReminderCheckInterval: Duration = .seconds(60),
        recurringBillCheckInterval: Duration = .seconds(300)
    ) {
        self.settings = settings
        self.socialURL = socialURL
        self.notificationsURL = notificationsURL
        self.socialGraph = socialGraph
        self.noticeSink = noticeSink
        self.userDirectory = userDirectory
        self.jobsBuilt = jobsBuilt
        self.monthEndCheckInterval = monthEndCheckInterval
        self.eventReminderCheckInterval = eventReminderCheckInterval
        self.choreReminderCheckInterval = choreReminderCheckInterval
        self.recurringBillCheckInterval = recurringBillCheckInterval
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .household, reader: reader),
            socialURL: reader.address(of: .social), notificationsURL: reader.optionalAddress(of: .notifications))
    }
}
