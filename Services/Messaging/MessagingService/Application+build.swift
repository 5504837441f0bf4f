import Foundation
import Hummingbird
import Logging
import PlatformKit
import ServiceKit

/// Builds the messaging service from its configuration (executable, local stack and tests alike).
public func buildMessagingApplication(_ configuration: MessagingConfiguration) async throws -> some ApplicationProtocol
{
    let settings = configuration.settings
    var logger = Logger(label: "platform.\(settings.service.rawValue)")
    logger.logLevel = settings.logLevel
    let store = try await openMessagingStore(settings.database, logger: logger)
    let chassis = ServiceChassis(
        settings: settings, store: store,
        openAPIDocument: ServiceApplication.openAPIDocument(in: .module), writesNeedUsername: true)
    let directory = CachedUserDirectory(
        configuration.userDirectory ?? IdentityUserDirectory(settings: settings), clock: settings.clock)
    let social =
        configuration.socialGraph
        ?? SocialGraphClient(address: configuration.socialURL, token: settings.internalToken)
    let routing = settings.noticeRouting(
        injected: configuration.noticeSink, notificationsURL: configuration.notificationsURL, outbox: store.outbox,
        logger: chassis.logger)
    let sink = routing.sink

    ConversationsController(
        store: store, directory: directory, social: social, notices: sink, clock: settings.clock
    )
    .addRoutes(to: chassis.signedIn)
    let events = MessageEvents(sink: sink, directory: directory)
    MessagesController(
        store: store, directory: directory, social: social, events: events, clock: settings.clock,
        logger: chassis.logger, latestPages: KeptAnswers()
    )
    .addRoutes(to: chassis.signedIn)
    MessageReportsController(
        store: store, events: events, clock: settings.clock,
        threshold: ContentReports.clamped(configuration.reportThreshold)
    )
    .addRoutes(to: chassis.signedIn)
    ReactionsController(store: store, events: events, clock: settings.clock).addRoutes(to: chassis.signedIn)
    TypingController(store: store, events: events, clock: settings.clock).addRoutes(to: chassis.signedIn)
    MessagingSettingsController(store: store).addRoutes(to: chassis.signedIn)
    TopicsController(store: store, clock: settings.clock).addRoutes(to: chassis.signedIn)
    ChatImagesController(store: store, clock: settings.clock).addRoutes(to: chassis.signedIn)
    InternalMessagingController(store: store).addRoutes(to: chassis.internalOnly)
    let imageSweep = PeriodicJob("unsent image sweep", every: .seconds(3_600), logger: chassis.logger) {
        _ = try await store.sweepUnsentImages(
            before: settings.clock.now.addingTimeInterval(-ChatImages.pendingLifetime))
    }
    return chassis.application(services: [imageSweep] + routing.services)
}
