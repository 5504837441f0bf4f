import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the messaging service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `SOCIAL_URL` | the social service, for friendships and blocks | http://127.0.0.1:8082 |
/// | `NOTIFICATIONS_URL` | the notifications service, for notices and live events | unset: notices are logged |
/// | `REPORTS_THRESHOLD` | distinct members whose reports hide a message until an admin decides, 1 to 50 | 3 |
/// | `DATABASE_URL` | PostgreSQL instead of the SQLite file: any number of replicas may serve one database | unset |
/// | and those of ``ServiceSettings`` | | |
public struct MessagingConfiguration: Sendable {
    public var settings: ServiceSettings
    /// The social service.
    public var socialURL: ServiceAddress
    /// The notifications service; `nil`: notices are logged.
    public var notificationsURL: ServiceAddress?
    /// Replaces the notices' and events' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Replaces the identity lookups.
    public var userDirectory: (any UserDirectory)?
    /// Replaces the social graph lookups.
    public var socialGraph: (any SocialGraph)?
    /// Distinct members whose open reports hide a message until an admin decides (``MessageReports/thresholds``).
    public var reportThreshold: Int

    public init(
        settings: ServiceSettings, socialURL: ServiceAddress = .local(.social),
        notificationsURL: ServiceAddress? = nil, noticeSink: (any NoticeSink)? = nil,
        userDirectory: (any UserDirectory)? = nil,
        socialGraph: (any SocialGraph)? = nil, reportThreshold: Int = 3
    ) {
        self.settings = settings
        self.socialURL = socialURL
        self.notificationsURL = notificationsURL
        self.noticeSink = noticeSink
        self.userDirectory = userDirectory
        self.socialGraph = socialGraph
        self.reportThreshold = reportThreshold
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .messaging, reader: reader),
            socialURL: reader.address(of: .social), notificationsURL: reader.optionalAddress(of: .notifications))
        reportThreshold = reader.int(forKey: "reports.threshold", default: ContentReports.defaultThreshold)
        guard ContentReports.thresholds.contains(reportThreshold) else {
            throw ConfigurationError.invalid(
                "REPORTS_THRESHOLD must be \(ContentReports.thresholds.lowerBound) to "
                    + "\(ContentReports.thresholds.upperBound)")
        }
    }
}
