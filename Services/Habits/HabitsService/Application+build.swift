import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the habits service from its configuration (executable, local stack and tests alike).
public func buildHabitsApplication(_ configuration: HabitsConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    let database = try HabitsDatabase(settings.database)
    let chassis = ServiceChassis(
        settings: settings, database: database.reader,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module))
    let graph =
        configuration.followGraph
        ?? SocialGraphClient(baseURL: configuration.socialURL, token: settings.internalToken)
    addHabitsRoutes(to: chassis.signedIn, database: database, graph: graph, clock: settings.clock)
    return chassis.application()
}

/// Attaches every habits route to the signed-in group (the build and the router tests share it).
func addHabitsRoutes(
    to signedIn: RouterGroup<AuthenticatedContext>, database: HabitsDatabase, graph: any FollowGraph, clock: WallClock
) {
    HabitsController(database: database, graph: graph, clock: clock).addRoutes(to: signedIn)
    EventsController(database: database, graph: graph, clock: clock).addRoutes(to: signedIn)
    HistoryController(database: database, graph: graph).addRoutes(to: signedIn)
    StatisticsController(database: database, clock: clock).addRoutes(to: signedIn)
}
