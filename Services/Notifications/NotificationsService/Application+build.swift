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
    let hub = EventHub()
    let database = try NotificationsDatabase(settings.database) { events in events.forEach(hub.publish) }
    let chassis = ServiceChassis(
        settings: settings, database: database.reader,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module), verifier: configuration.verifier)
    let delivery: any PushDelivery =
        if let injected = configuration.pushDelivery {
            injected
        } else if let apns = configuration.apns {
            try await APNsDelivery(settings: apns, clock: { settings.clock.now })
        } else {
            LoggingPushDelivery(logger: chassis.logger)
        }
    let pushes = PushDispatcher(delivery: delivery, database: database, logger: chassis.logger)
    let pruning = StreamPruning(database: database, retention: configuration.streamRetention, clock: settings.clock)

    InboxController(database: database, clock: settings.clock).addRoutes(to: chassis.signedIn)
    StreamController(
        database: database, hub: hub, verifier: chassis.verifier, clock: settings.clock,
        heartbeatInterval: configuration.heartbeatInterval
    )
    .addRoutes(to: chassis.signedIn)
    // Streams end with their session. The verifier hears of every ended session from identity's revocation feed,
    // which each replica of this service follows; identity's post of ended sessions reaches only one replica.
    chassis.verifier.onSessionsEnded { hub.endSessions($0) }
    DevicesController(database: database, clock: settings.clock).addRoutes(to: chassis.signedIn)
    InternalNotificationsController(
        database: database, pushes: pushes, hub: hub, clock: settings.clock, recentEvents: RecentEventKeys()
    )
    .addRoutes(to: chassis.internalOnly)
    return chassis.application(services: [pushes, pruning.job(logger: chassis.logger)])
}
