import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the social service from its configuration (executable, local stack and tests alike).
public func buildSocialApplication(_ configuration: SocialConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    let database = try SocialDatabase(settings.database)
    let chassis = ServiceChassis(
        settings: settings, database: database.reader,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module), verifier: configuration.verifier,
        writesNeedUsername: true)
    let directory = configuration.userDirectory ?? IdentityUserDirectory(settings: settings)
    let notices = SocialNotices(
        sink: configuration.noticeSink
            ?? settings.noticeSink(notificationsURL: configuration.notificationsURL, logger: chassis.logger))
    let profiles = ProfileStore(database: database, directory: directory, clock: settings.clock)

    let members = MessagingMembersClient(baseURL: configuration.messagingURL, token: settings.internalToken)
    FriendsController(
        database: database, profiles: profiles, notices: notices, members: members, clock: settings.clock
    )
    .addRoutes(to: chassis.signedIn)
    FollowsController(database: database, profiles: profiles, notices: notices, clock: settings.clock)
        .addRoutes(to: chassis.signedIn)
    let relationshipChanges = ChangeBell()
    database.ringOnRelationshipChanges(relationshipChanges)
    InternalSocialController(database: database, changes: relationshipChanges).addRoutes(to: chassis.internalOnly)
    return chassis.application()
}
