import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the notifications service from its configuration (executable, local stack and tests alike).
public func buildNotificationsApplication(_ configuration: NotificationsConfiguration) async throws
    -> some ApplicationProtocol
{
    let settings = configuration.settings
    var storeLogger = Logger(label: "platform.notifications")
    storeLogger.logLevel = settings.logLevel
    let hub = EventHub()
    let store = try await openNotificationsStore(settings.database, hub: hub, logger: storeLogger)
    let chassis = ServiceChassis(
        settings: settings, store: store,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module), verifier: configuration.verifier)
    let delivery: any PushDelivery =
        if let injected = configuration.pushDelivery {
            injected
        } else if let apns = configuration.apns {
            try await APNsDelivery(settings: apns, clock: { settings.clock.now })
        } else {
            LoggingPushDelivery(logger: chassis.logger)
        }
    let pushes = PushDispatcher(delivery: delivery, store: store, logger: chassis.logger)
    let jobs = NotificationsJobs(
        streamPruning: StreamPruning(store: store, retention: configuration.streamRetention))
    configuration.jobsBuilt?(jobs)
    let pruning = PeriodicJob(
        "stream log pruning", every: configuration.streamPruningInterval, logger: chassis.logger
    ) { [clock = settings.clock] in try await jobs.pruneStream(now: clock.now) }

    InboxController(store: store, clock: settings.clock).addRoutes(to: chassis.signedIn)
    StreamController(
        store: store, hub: hub, verifier: chassis.verifier, clock: settings.clock,
        heartbeatInterval: configuration.heartbeatInterval
    )
    .addRoutes(to: chassis.signedIn)
    // Streams end with their session. The verifier hears of every ended session from identity's revocation feed,
    // which each replica of this service follows; identity's post of ended sessions reaches only one replica, which
    // ends its own streams at once and (on PostgreSQL) the others' through the store's feed.
    chassis.verifier.onSessionsEnded { hub.endSessions($0) }
    DevicesController(store: store, clock: settings.clock).addRoutes(to: chassis.signedIn)
    InternalNotificationsController(store: store, pushes: pushes, hub: hub, clock: settings.clock)
        .addRoutes(to: chassis.internalOnly)
    return chassis.application(services: [pushes, pruning])
}
