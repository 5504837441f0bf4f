import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the geo service from its configuration (executable, local stack and tests alike).
public func buildGeoApplication(_ configuration: GeoConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    var storeLogger = Logger(label: "platform.geo")
    storeLogger.logLevel = settings.logLevel
    let database = try await openGeoStore(
        settings.database, gazetteer: configuration.gazetteer, logger: storeLogger)
    let chassis = ServiceChassis(
        settings: settings, store: database, openAPIDocument: ServiceApplication.openAPIDocument(in: .module))
    let logger = chassis.logger
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: settings.clock)
    // The map asks for the viewer's friends and blocks on every read: a copy kept while social's change feed
    // is live answers them without a round trip (a test's graph is used as it is).
    let graph: any FriendIDsLookup & FriendAndBlockedIDsLookup & SocialRelationshipsLookup
    var relationshipChanges: RelationshipChangeFeed?
    if let injected = configuration.socialGraph {
        graph = injected
    } else {
        let kept = KeptSocialGraph(
            source: SocialGraphClient(address: configuration.socialURL, token: settings.internalToken),
            metrics: chassis.metrics)
        graph = kept
        relationshipChanges = RelationshipChangeFeed(
            socialURL: configuration.socialURL, token: settings.internalToken,
            listener: kept, logger: logger)
    }
    let routing = settings.noticeRouting(
        injected: configuration.noticeSink, notificationsURL: configuration.notificationsURL,
        outbox: database.outbox, logger: logger)
    let notices = routing.sink

    let signedIn = chassis.signedIn
    PinsController(database: database, graph: graph, clock: settings.clock).addRoutes(to: signedIn)
    PhotosController(database: database, graph: graph, clock: settings.clock).addRoutes(to: signedIn)
    MapController(database: database, graph: graph).addRoutes(to: signedIn)
    PlacesController(database: database, graph: graph, directory: directory).addRoutes(to: signedIn)
    ColorsController(database: database).addRoutes(to: signedIn)
    PrivacyController(database: database).addRoutes(to: signedIn)
    VisitedController(database: database).addRoutes(to: signedIn)
    WorldShareController(database: database, graph: graph, directory: directory).addRoutes(to: signedIn)
    TripsController(database: database, graph: graph, clock: settings.clock).addRoutes(to: signedIn)
    PinReactionsController(
        database: database, graph: graph, directory: directory, clock: settings.clock, notices: notices
    ).addRoutes(to: signedIn)
    PacksController(database: database, clock: settings.clock).addRoutes(to: signedIn)
    PackPostsController(
        database: database, clock: settings.clock,
        postLimiter: RateLimiter(
            capacity: configuration.postsPerWindow, period: configuration.writeWindow, clock: settings.clock),
        commentLimiter: RateLimiter(
            capacity: configuration.commentsPerWindow, period: configuration.writeWindow, clock: settings.clock),
        notices: notices
    ).addRoutes(to: signedIn)
    FeedController(database: database, clock: settings.clock).addRoutes(to: signedIn)
    PackReportsController(
        database: database, clock: settings.clock,
        threshold: ContentReports.clamped(configuration.reportThreshold)
    ).addRoutes(to: signedIn)
    PackModerationController(database: database, clock: settings.clock, notices: notices).addRoutes(to: signedIn)

    let jobs = GeoJobs(packMaintenance: PackMaintenance(database: database, notices: notices))
    configuration.jobsBuilt?(jobs)
    let maintenance = PeriodicJob("pack maintenance", every: configuration.packMaintenanceInterval, logger: logger) {
        [clock = settings.clock] in
        let report = try await jobs.maintainPacks(now: clock.now)
        if report.warnedPacks > 0 || report.flushedPacks > 0 {
            logger.info(
                "packs maintained",
                metadata: [
                    "warned": "\(report.warnedPacks)", "flushedPacks": "\(report.flushedPacks)",
                    "flushedPosts": "\(report.flushedPosts)",
                ])
        }
    }
    return chassis.application(
        services: [maintenance] + (relationshipChanges.map { [$0] } ?? []) + routing.services)
}

/// Files the geo service ships.
public enum GeoResources {
    /// The bundled sample of the GeoNames-derived gazetteer (`Gazetteer/cities15000.tsv`, places of 15,000+ people,
    /// CC BY 4.0; see `Gazetteer/NOTICE.md`); `GAZETTEER_FILE` names the full one.
    public static var gazetteer: URL? {
        Bundle.module.url(forResource: "cities15000", withExtension: "tsv", subdirectory: "Gazetteer")
    }
}
