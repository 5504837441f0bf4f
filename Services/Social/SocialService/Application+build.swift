import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the social service from its configuration (executable, local stack and tests alike).
public func buildSocialApplication(_ configuration: SocialConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    var logger = Logger(label: "platform.social")
    logger.logLevel = settings.logLevel
    let database = try SocialDatabase(settings.database)
    let verifier = AccessTokenVerifier.remote(
        jwksURL: settings.identityURL + IdentityPaths.jwks, httpClient: .platform, clock: settings.clock)
    let directory = configuration.userDirectory ?? IdentityUserDirectory(settings: settings)
    let notices =
        configuration.noticeSink
        ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: logger)
    let profiles = ProfileStore(database: database, directory: directory, clock: settings.clock)

    let router = ServiceApplication.router(
        metrics: ServiceMetrics(), openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        database: database.writer)
    let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
        .group(context: AuthenticatedContext.self)
    FriendsController(
        database: database, profiles: profiles, directory: directory, notices: notices, clock: settings.clock
    )
    .addRoutes(to: signedIn)
    FollowsController(
        database: database, profiles: profiles, directory: directory, notices: notices, clock: settings.clock
    )
    .addRoutes(to: signedIn)
    InternalSocialController(database: database)
        .addRoutes(to: router.group().add(middleware: InternalCredentialMiddleware(token: settings.internalToken)))
    return ServiceApplication.application(router: router, settings: settings, verifier: verifier)
}
