import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the social service from its configuration (executable, local stack and tests alike).
public func buildSocialApplication(_ configuration: SocialConfiguration) async throws -> some ApplicationProtocol {
    let settings = configuration.settings
    var storeLogger = Logger(label: "platform.social")
    storeLogger.logLevel = settings.logLevel
    let store = try await openSocialStore(settings.database, logger: storeLogger)
    let chassis = ServiceChassis(
        settings: settings, store: store, openAPIDocument: ServiceApplication.openAPIDocument(in: .module),
        verifier: configuration.verifier, writesNeedUsername: true)
    let directory = configuration.userDirectory ?? IdentityUserDirectory(settings: settings)
    let routing = settings.noticeRouting(
        injected: configuration.noticeSink, notificationsURL: configuration.notificationsURL, outbox: store.outbox,
        logger: chassis.logger)
    let notices = SocialNotices(sink: routing.sink)
    let profiles = ProfileStore(store: store, directory: directory, clock: settings.clock)

    let members = MessagingMembersClient(address: configuration.messagingURL, token: settings.internalToken)
    FriendsController(store: store, profiles: profiles, notices: notices, members: members, clock: settings.clock)
        .addRoutes(to: chassis.signedIn)
    FollowsController(store: store, profiles: profiles, notices: notices, clock: settings.clock)
        .addRoutes(to: chassis.signedIn)
    // Rung by this process's commits, and on PostgreSQL by every replica's (its listener runs with the application).
    let relationshipChanges = ChangeBell()
    let listener = store.ringOnRelationshipChanges(relationshipChanges)
    InternalSocialController(store: store, changes: relationshipChanges).addRoutes(to: chassis.internalOnly)
    return chassis.application(services: (listener.map { [$0] } ?? []) + routing.services)
}
