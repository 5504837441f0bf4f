import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the habits service from its configuration (executable, local stack and tests alike).
public func buildHabitsApplication(_ configuration: HabitsConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    var storeLogger = Logger(label: "platform.habits")
    storeLogger.logLevel = settings.logLevel
    let store = try await openHabitsStore(settings.database, logger: storeLogger)
    let chassis = ServiceChassis(
        settings: settings, store: store, openAPIDocument: ServiceApplication.openAPIDocument(in: .module))
    let graph =
        configuration.followGraph
        ?? SocialGraphClient(address: configuration.socialURL, token: settings.internalToken)
    let clock = settings.clock
    addHabitsRoutes(to: chassis.signedIn, store: store, graph: graph, clock: clock)
    let notices =
        configuration.noticeSink
        ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: chassis.logger)
    let jobs = HabitsJobs(reminders: HabitReminders(store: store, notices: notices))
    configuration.jobsBuilt?(jobs)
    let reminders = PeriodicJob("habit reminders", every: configuration.reminderCheckInterval, logger: chassis.logger) {
        _ = try await jobs.sendReminders(now: clock.now)
    }
    return chassis.application(services: [reminders])
}

/// Attaches every habits route to the signed-in group (the build and the router tests share it).
func addHabitsRoutes(
    to signedIn: RouterGroup<AuthenticatedContext>, store: any HabitsStore, graph: any FollowingIDsLookup,
    clock: WallClock
) {
    HabitsController(store: store, graph: graph, clock: clock).addRoutes(to: signedIn)
    EventsController(store: store, graph: graph, clock: clock).addRoutes(to: signedIn)
    HistoryController(store: store, graph: graph).addRoutes(to: signedIn)
    StatisticsController(store: store, clock: clock).addRoutes(to: signedIn)
    ExcusesController(store: store, clock: clock).addRoutes(to: signedIn)
    OrderExportController(store: store, clock: clock).addRoutes(to: signedIn)
}
