import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the messaging service from its configuration (executable, local stack and tests alike).
public func buildMessagingApplication(_ configuration: MessagingConfiguration) async throws -> some ApplicationProtocol
{
    let settings = configuration.settings
    var logger = Logger(label: "platform.messaging")
    logger.logLevel = settings.logLevel
    let database = try MessagingDatabase(settings.database)
    let verifier = AccessTokenVerifier.remote(
        jwksURL: settings.identityURL + IdentityPaths.jwks, httpClient: .platform, clock: settings.clock)
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: settings.clock)
    let social =
        configuration.socialGraph
        ?? SocialGraphClient(baseURL: configuration.socialURL, token: settings.internalToken)
    let sink =
        configuration.noticeSink
        ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: logger)

    let router = ServiceApplication.router(
        metrics: ServiceMetrics(), openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        database: database.writer)
    let signedIn = router.group().add(middleware: AccessTokenMiddleware(verifier: verifier))
        .group(context: AuthenticatedContext.self)
    ConversationsController(
        database: database, directory: directory, social: social, notices: sink, clock: settings.clock
    )
    .addRoutes(to: signedIn)
    MessagesController(
        database: database, directory: directory, social: social,
        events: MessageEvents(sink: sink, directory: directory), clock: settings.clock, logger: logger
    )
    .addRoutes(to: signedIn)
    TopicsController(database: database, clock: settings.clock).addRoutes(to: signedIn)
    return ServiceApplication.application(router: router, settings: settings, verifier: verifier)
}
