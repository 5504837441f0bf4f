import Configuration
import Foundation
import PlatformKit
import ServiceKit

/// Everything the geo service needs to start, from the environment or built by tests.
///
/// | variable | meaning | default |
/// |---|---|---|
/// | `SOCIAL_URL` | the social service, for friends and blocks | http://127.0.0.1:8082 |
/// | `NOTIFICATIONS_URL` | the notifications service, for pack expiry notices | unset: notices are logged |
/// | `GAZETTEER_FILE` | the gazetteer to load, e.g. `cities500.tsv` built by `Services/Geo/Gazetteer/make-gazetteer.py`; a file other than the one loaded before replaces the places at start | unset: the bundled `cities15000.tsv` |
/// | `REPORTS_THRESHOLD` | distinct reporters that hide a pack post or comment until an admin decides, 1 to 50 | 3 |
/// | and those of ``ServiceSettings`` | | |
public struct GeoConfiguration: Sendable {
    public var settings: ServiceSettings
    /// The social service (a test stack may start it after this one: ``ServiceAddress/late(_:)``).
    public var socialURL: ServiceAddress
    /// Replaces the social graph lookups and the copy kept of them (router tests and benchmarks use none): friends
    /// (the world share), friends and blocks (the map) and how the viewer stands to others (pins, photos, trips).
    public var socialGraph: (any FriendIDsLookup & FriendAndBlockedIDsLookup & SocialRelationshipsLookup)?
    /// Replaces the identity lookups.
    public var userDirectory: (any UserDirectory)?
    /// Loads the gazetteer at start (benchmarks and focused tests may skip it).
    public var loadGazetteer: Bool
    /// The gazetteer file to load in place of the bundled sample (``GeoResources/gazetteer``).
    public var gazetteerFile: String?
    /// The notifications service; `nil`: notices are logged.
    public var notificationsURL: ServiceAddress?
    /// Replaces the notices' destination (tests record them).
    public var noticeSink: (any NoticeSink)?
    /// Receives the background jobs (pack expiry warnings and flushing) once they are built, so tests and benchmarks
    /// can run them at a time of their choosing.
    public var jobsBuilt: (@Sendable (GeoJobs) -> Void)?
    /// How often the pack jobs run.
    public var packMaintenanceInterval: Duration
    /// Posts and comments one user may write per ``writeWindow`` seconds (refilled evenly).
    public var postsPerWindow: Int
    public var commentsPerWindow: Int
    public var writeWindow: TimeInterval
    /// Distinct people whose open reports hide a post or comment until an admin decides
    /// (``PackReports/thresholds``).
    public var reportThreshold: Int

    public init(
        settings: ServiceSettings,
        socialURL: ServiceAddress = .local(.social),
        socialGraph: (any FriendIDsLookup & FriendAndBlockedIDsLookup & SocialRelationshipsLookup)? = nil,
        userDirectory: (any UserDirectory)? = nil, loadGazetteer: Bool = true,
        gazetteerFile: String? = nil, notificationsURL: ServiceAddress? = nil, noticeSink: (any NoticeSink)? = nil,
        jobsBuilt: (@Sendable (GeoJobs) -> Void)? = nil,
        packMaintenanceInterval: Duration = .seconds(60), postsPerWindow: Int = 10, commentsPerWindow: Int = 30,
        writeWindow: TimeInterval = 600, reportThreshold: Int = 3
    ) {
        self.settings = settings
        self.socialURL = socialURL
        self.socialGraph = socialGraph
        self.userDirectory = userDirectory
        self.loadGazetteer = loadGazetteer
        self.gazetteerFile = gazetteerFile
        self.notificationsURL = notificationsURL
        self.noticeSink = noticeSink
        self.jobsBuilt = jobsBuilt
        self.packMaintenanceInterval = packMaintenanceInterval
        self.postsPerWindow = postsPerWindow
        self.commentsPerWindow = commentsPerWindow
        self.writeWindow = writeWindow
        self.reportThreshold = reportThreshold
    }

    public init(reader: ConfigReader) throws {
        self.init(
            settings: try ServiceSettings(service: .geo, reader: reader),
            gazetteerFile: reader.string(forKey: "gazetteer.file").flatMap { $0.isEmpty ? nil : $0 },
            notificationsURL: reader.optionalAddress(of: .notifications))
        socialURL = reader.address(of: .social)
        reportThreshold = reader.int(forKey: "reports.threshold", default: ContentReports.defaultThreshold)
        guard ContentReports.thresholds.contains(reportThreshold) else {
            throw ConfigurationError.invalid(
                "REPORTS_THRESHOLD must be \(ContentReports.thresholds.lowerBound) to \(ContentReports.thresholds.upperBound)"
            )
        }
    }

    /// The gazetteer to load: ``gazetteerFile`` or the bundled sample; none without ``loadGazetteer``.
    var gazetteer: URL? {
        guard loadGazetteer else { return nil }
        return gazetteerFile.map { URL(fileURLWithPath: $0) } ?? GeoResources.gazetteer
    }
}
