import Foundation
import GeoService
import HabitsService
import HouseholdService
import MessagingService
import NotificationsService
import PlatformKit
import ServiceKit
import SocialService
import Testing

/// A stack with every product service (social, messaging, geo without its gazetteer, habits, household), each
/// reaching the social graph of this stack; with `notifications`, the notifications service too (live streams).
/// `postgres` and `replicas` are ``TestStack/start(services:routes:postgres:replicas:configureIdentity:configureGateway:)``'s.
public enum ProductStack {
    public static func run(
        notifications: Bool = false, postgres: Set<ServiceName> = TestStack.postgresByDefault,
        replicas: [ServiceName: Int] = [:], _ body: (TestStack) async throws -> Void
    ) async throws {
        let social = LateServiceURL()
        let messagingNotices = LateNoticeSink()
        let householdNotices = LateNoticeSink()
        let habitsNotices = LateNoticeSink()
        let graph: @Sendable (ServiceSettings) -> SocialGraphClient = { settings in
            SocialGraphClient(address: .late { social.url }, token: settings.internalToken)
        }
        var services: [ServiceName: TestStack.ServiceBuilder] = [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) },
            .messaging: {
                try await buildMessagingApplication(
                    MessagingConfiguration(
                        settings: $0, noticeSink: notifications ? messagingNotices : nil, socialGraph: graph($0)))
            },
            .geo: {
                try await buildGeoApplication(
                    GeoConfiguration(settings: $0, socialGraph: graph($0), loadGazetteer: false))
            },
            .habits: {
                try await buildHabitsApplication(
                    HabitsConfiguration(
                        settings: $0, followGraph: graph($0), noticeSink: notifications ? habitsNotices : nil))
            },
            .household: {
                try await buildHouseholdApplication(
                    HouseholdConfiguration(
                        settings: $0, noticeSink: notifications ? householdNotices : nil, socialGraph: graph($0)))
            },
        ]
        if notifications {
            services[.notifications] = {
                try await buildNotificationsApplication(NotificationsConfiguration(settings: $0))
            }
        }
        try await withTestStack(services: services, postgres: postgres, replicas: replicas) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            if notifications {
                for (sink, service) in [
                    (messagingNotices, ServiceName.messaging), (householdNotices, .household), (habitsNotices, .habits),
                ] {
                    sink.connect(
                        to: NotificationsNoticeSink(
                            address: ServiceAddress(try #require(stack.serviceURLs[.notifications])),
                            settings: ServiceSettings(service: service, internalToken: stack.internalToken),
                            logger: .init(label: "test")))
                }
            }
            try await body(stack)
        }
    }
}
