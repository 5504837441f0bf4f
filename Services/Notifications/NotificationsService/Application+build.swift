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
    var logger = Logger(label: "platform.notifications")
    logger.logLevel = settings.logLevel
    let hub = EventHub()
    let database = try NotificationsDatabase(settings.database) { events in events.forEach(hub.publish) }
    let verifier = AccessTokenVerifier.remote(
        jwksURL: settings.identityURL + IdentityPaths.jwks, httpClient: .platform, clock: settings.clock)
    let delivery: any PushDelivery =
        if let injected = configuration.pushDelivery {
            injected
        } else if let apns = configuration.apns {
            try await APNsDelivery(settings: apns, clock: { settings.clock.now })
        } else {
            LoggingPushDelivery(logger: logger)
        }
    let pushes = PushDispatcher(delivery: delivery, database: database, logger: logger)
    // Stream events past their retention go every ten minutes; the inbox is not touched.
    let pruner = PeriodicJob("stream log pruning", every: .seconds(600), logger: logger) {
        [retention = configuration.streamRetention, clock = settings.clock] in
        try await database.pruneEvents(before: clock.now.addingTimeInterval(-retention))
    }

    let router = ServiceApplication.router(
        metrics: ServiceMetrics(), openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        database: database.writer)
    let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
        .group(context: AuthenticatedContext.self)
    InboxController(database: database, clock: settings.clock).addRoutes(to: signedIn)
    StreamController(database: database, hub: hub, heartbeatInterval: configuration.heartbeatInterval)
        .addRoutes(to: signedIn)
    DevicesController(database: database, clock: settings.clock).addRoutes(to: signedIn)
    InternalNotificationsController(database: database, pushes: pushes, clock: settings.clock)
        .addRoutes(to: router.group().add(middleware: InternalCredentialMiddleware(token: settings.internalToken)))
    return ServiceApplication.application(
        router: router, settings: settings, services: [pushes, pruner], verifier: verifier)
}
