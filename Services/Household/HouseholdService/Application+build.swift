import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the household service from its configuration (executable, local stack and tests alike).
public func buildHouseholdApplication(_ configuration: HouseholdConfiguration) async throws -> some ApplicationProtocol
{
    let settings = configuration.settings
    let database = try HouseholdDatabase(settings.database)
    let chassis = ServiceChassis(
        settings: settings, database: database.reader,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module))
    let clock = settings.clock
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: clock)
    let events =
        configuration.eventSink
        ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: chassis.logger)
    let social =
        configuration.socialGraph
        ?? SocialGraphClient(baseURL: configuration.socialURL, token: settings.internalToken)

    addHouseholdRoutes(
        to: chassis.signedIn, database: database, directory: directory, social: social, events: events, clock: clock)

    let jobs = HouseholdJobs(monthEnd: MonthEndReminders(database: database, events: events))
    configuration.jobsBuilt?(jobs)
    let monthEnd = PeriodicJob(
        "month-end reminders", every: configuration.monthEndCheckInterval, logger: chassis.logger
    ) { _ = try await jobs.sendMonthEndReminders(now: clock.now) }
    return chassis.application(services: [monthEnd])
}

/// Attaches every household route to the signed-in group (the build and the router tests share it).
func addHouseholdRoutes(
    to signedIn: RouterGroup<AuthenticatedContext>, database: HouseholdDatabase, directory: any UserDirectory,
    social: any SocialRelationshipLookup, events: any NoticeSink, clock: WallClock,
    choreLists: KeptAnswers<ChoresController.ChoreList> = KeptAnswers()
) {
    let live = HouseholdLiveEvents(database: database, sink: events)
    HouseholdsController(database: database, directory: directory, social: social, events: events, clock: clock)
        .addRoutes(to: signedIn)
    ChoresController(database: database, events: events, live: live, clock: clock, choreLists: choreLists)
        .addRoutes(to: signedIn)
    StatisticsController(database: database, directory: directory, clock: clock).addRoutes(to: signedIn)
    NotesController(database: database, events: events, live: live, clock: clock).addRoutes(to: signedIn)
    BillsController(database: database, directory: directory, events: events, clock: clock).addRoutes(to: signedIn)
    GroceriesController(database: database, events: events, live: live, clock: clock).addRoutes(to: signedIn)
    TripsController(database: database, events: events, live: live, clock: clock).addRoutes(to: signedIn)
    SettleController(database: database, events: events, clock: clock).addRoutes(to: signedIn)
    SettingsController(database: database, clock: clock).addRoutes(to: signedIn)
}
