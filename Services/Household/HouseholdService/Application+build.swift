import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the household service from its configuration (executable, local stack and tests alike).
public func buildHouseholdApplication(_ configuration: HouseholdConfiguration) async throws -> some ApplicationProtocol
{
    let settings = configuration.settings
    var logger = Logger(label: "platform.household")
    logger.logLevel = settings.logLevel
    let database = try HouseholdDatabase(settings.database)
    let verifier = AccessTokenVerifier.remote(
        jwksURL: settings.identityURL + IdentityPaths.jwks, httpClient: .platform, clock: settings.clock)
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: settings.clock)
    let events =
        configuration.eventSink ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: logger)

    let router = ServiceApplication.router(
        metrics: ServiceMetrics(), openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        database: database.writer)
    let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
        .group(context: AuthenticatedContext.self)
    HouseholdsController(database: database, directory: directory, events: events, clock: settings.clock)
        .addRoutes(to: signedIn)
    ChoresController(database: database, events: events, clock: settings.clock).addRoutes(to: signedIn)
    StatisticsController(database: database, directory: directory, clock: settings.clock).addRoutes(to: signedIn)
    NotesController(database: database, events: events, clock: settings.clock).addRoutes(to: signedIn)
    BillsController(database: database, events: events, clock: settings.clock).addRoutes(to: signedIn)
    GroceriesController(database: database, events: events, clock: settings.clock).addRoutes(to: signedIn)
    TripsController(database: database, events: events, clock: settings.clock).addRoutes(to: signedIn)
    SettleController(database: database, events: events, clock: settings.clock).addRoutes(to: signedIn)
    let jobs = configuration.jobs ?? HouseholdJobs()
    jobs.install(database, events)
    let monthEnd = PeriodicJob("month-end reminders", every: configuration.monthEndCheckInterval, logger: logger) {
        [clock = settings.clock] in
        _ = try await jobs.sendMonthEndReminders(now: clock.now)
    }
    return ServiceApplication.application(
        router: router, settings: settings, services: [monthEnd], verifier: verifier)
}
