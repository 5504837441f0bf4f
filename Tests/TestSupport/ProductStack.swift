import Foundation
import GeoService
import HabitsService
import HouseholdService
import MessagingService
import ServiceKit
import SocialService
import TestSupport
import Testing

/// A stack with every product service (social, messaging, geo without its gazetteer, habits, household), each
/// reaching the social graph of this stack.
enum ProductStack {
    static func run(_ body: (TestStack) async throws -> Void) async throws {
        let social = LateServiceURL()
        let graph: @Sendable (ServiceSettings) -> SocialGraphClient = { settings in
            SocialGraphClient(baseURL: { social.url }, token: settings.internalToken)
        }
        try await withTestStack(services: [
            .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) },
            .messaging: {
                try await buildMessagingApplication(MessagingConfiguration(settings: $0, socialGraph: graph($0)))
            },
            .geo: {
                try await buildGeoApplication(
                    GeoConfiguration(settings: $0, socialGraph: graph($0), loadGazetteer: false))
            },
            .habits: { try await buildHabitsApplication(HabitsConfiguration(settings: $0, followGraph: graph($0))) },
            .household: { try await buildHouseholdApplication(HouseholdConfiguration(settings: $0)) },
        ]) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            try await body(stack)
        }
    }
}
