import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Builds the messaging service from its configuration (executable, local stack and tests alike).
public func buildMessagingApplication(_ configuration: MessagingConfiguration) async throws -> some ApplicationProtocol
{
    let settings = configuration.settings
    let database = try MessagingDatabase(settings.database)
    let chassis = ServiceChassis(
        settings: settings, database: database.reader,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module), writesNeedUsername: true)
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: settings.clock)
    let social =
        configuration.socialGraph
        ?? SocialGraphClient(baseURL: configuration.socialURL, token: settings.internalToken)
    let sink =
        configuration.noticeSink
        ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: chassis.logger)

    ConversationsController(
        database: database, directory: directory, social: social, notices: sink, clock: settings.clock
    )
    .addRoutes(to: chassis.signedIn)
    MessagesController(
        database: database, directory: directory, social: social,
        events: MessageEvents(sink: sink, directory: directory), clock: settings.clock, logger: chassis.logger,
        latestPages: KeptAnswers()
    )
    .addRoutes(to: chassis.signedIn)
    TopicsController(database: database, clock: settings.clock).addRoutes(to: chassis.signedIn)
    InternalMessagingController(database: database).addRoutes(to: chassis.internalOnly)
    return chassis.application()
}
