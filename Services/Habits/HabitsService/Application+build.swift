import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the habits service from its configuration (executable, local stack and tests alike).
public func buildHabitsApplication(_ configuration: HabitsConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    let database = try HabitsDatabase(settings.database)
    let verifier = AccessTokenVerifier.remote(
        jwksURL: settings.identityURL + IdentityPaths.jwks, httpClient: .platform, clock: settings.clock)
    let graph =
        configuration.followGraph
        ?? SocialGraphClient(baseURL: configuration.socialURL, token: settings.internalToken)

    let router = ServiceApplication.router(
        metrics: ServiceMetrics(), openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        database: database.writer)
    let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
        .group(context: AuthenticatedContext.self)
    HabitsController(database: database, graph: graph, clock: settings.clock).addRoutes(to: signedIn)
    EventsController(database: database, graph: graph, clock: settings.clock).addRoutes(to: signedIn)
    HistoryController(database: database, graph: graph).addRoutes(to: signedIn)
    StatisticsController(database: database, clock: settings.clock).addRoutes(to: signedIn)
    return ServiceApplication.application(router: router, settings: settings, verifier: verifier)
}
