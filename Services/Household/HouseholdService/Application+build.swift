import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the household service from its configuration (executable, local stack and tests alike).
public func buildHouseholdApplication(_ configuration: HouseholdConfiguration) async throws -> some ApplicationProtocol
{
    let settings = configuration.settings
    var storeLogger = Logger(label: "platform.household")
    storeLogger.logLevel = settings.logLevel
    let store = try await openHouseholdStore(settings.database, logger: storeLogger)
    let chassis = ServiceChassis(
        settings: settings, store: store, openAPIDocument: ServiceApplication.openAPIDocument(in: .module))
    let clock = settings.clock
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: clock)
    let routing = settings.noticeRouting(
        injected: configuration.noticeSink, notificationsURL: configuration.notificationsURL, outbox: store.outbox,
        logger: chassis.logger)
    let notices = routing.sink
    let social =
        configuration.socialGraph
        ?? SocialGraphClient(address: configuration.socialURL, token: settings.internalToken)

    addHouseholdRoutes(
        to: chassis.signedIn, store: store, directory: directory, social: social, notices: notices, clock: clock)

    let jobs = HouseholdJobs(
        monthEnd: MonthEndReminders(store: store, notices: notices),
        eventReminders: EventReminders(store: store, notices: notices),
        choreReminders: ChoreDueReminders(store: store, notices: notices),
        recurringBills: RecurringBills(store: store, notices: notices))
    configuration.jobsBuilt?(jobs)
    let monthEnd = PeriodicJob(
        "month-end reminders", every: configuration.monthEndCheckInterval, logger: chassis.logger
    ) { _ = try await jobs.sendMonthEndReminders(now: clock.now) }
    let eventReminders = PeriodicJob(
        "event reminders", every: configuration.eventReminderCheckInterval, logger: chassis.logger
    ) { _ = try await jobs.sendEventReminders(now: clock.now) }
    let choreReminders = PeriodicJob(
        "chore reminders", every: configuration.choreReminderCheckInterval, logger: chassis.logger
    ) { _ = try await jobs.sendChoreReminders(now: clock.now) }
    let recurringBills = PeriodicJob(
        "recurring bills", every: configuration.recurringBillCheckInterval, logger: chassis.logger
    ) { _ = try await jobs.makeRecurringBills(now: clock.now) }
    return chassis.application(
        services: [monthEnd, eventReminders, choreReminders, recurringBills] + routing.services)
}

/// Attaches every household route to the signed-in group (the build and the router tests share it).
func addHouseholdRoutes(
    to signedIn: RouterGroup<AuthenticatedContext>, store: any HouseholdStore, directory: any UserDirectory,
    social: any SocialRelationshipLookup, notices: any NoticeSink, clock: WallClock,
    choreLists: KeptAnswers<ChoresController.ChoreList> = KeptAnswers()
) {
    let live = LiveUpdates(sink: notices)
    HouseholdsController(store: store, directory: directory, social: social, notices: notices, clock: clock)
        .addRoutes(to: signedIn)
    ChoresController(store: store, live: live, clock: clock, choreLists: choreLists).addRoutes(to: signedIn)
    CompletionsController(store: store, live: live, clock: clock).addRoutes(to: signedIn)
    StatisticsController(store: store, directory: directory, clock: clock).addRoutes(to: signedIn)
    NotesController(store: store, live: live, clock: clock).addRoutes(to: signedIn)
    EventsController(store: store, live: live, clock: clock).addRoutes(to: signedIn)
    BillsController(store: store, directory: directory, notices: notices, clock: clock).addRoutes(to: signedIn)
    BillImagesController(store: store, clock: clock).addRoutes(to: signedIn)
    RecurringBillsController(store: store, clock: clock).addRoutes(to: signedIn)
    LedgerExportController(store: store, directory: directory).addRoutes(to: signedIn)
    GroceriesController(store: store, live: live, clock: clock).addRoutes(to: signedIn)
    ShoppingController(store: store, live: live, clock: clock).addRoutes(to: signedIn)
    TripsController(store: store, notices: notices, clock: clock).addRoutes(to: signedIn)
    SettleController(store: store, notices: notices, clock: clock).addRoutes(to: signedIn)
    SettingsController(store: store, clock: clock).addRoutes(to: signedIn)
}
