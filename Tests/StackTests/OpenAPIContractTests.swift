import Foundation
import GeoService
import HabitsService
import HouseholdService
import MessagingService
import NotificationsService
import PlatformKit
import ServiceKit
import SocialService
import TestSupport
import Testing

/// Every operation in the merged OpenAPI document exists on the running services, and answers a
/// plain probe (a signed-in caller, placeholder path parameters, an empty JSON object as the body) with
/// one of the statuses the document lists for it.
@Suite struct OpenAPIContractTests {
    @Test func everyDocumentedOperationAnswersAsDocumented() async throws {
        let social = LateServiceURL()
        let messaging = LateServiceURL()
        try await withTestStack(services: [
            .household: {
                try await buildHouseholdApplication(
                    HouseholdConfiguration(
                        settings: $0,
                        socialGraph: SocialGraphClient(address: .late { social.url }, token: $0.internalToken)))
            },
            .social: {
                try await buildSocialApplication(
                    SocialConfiguration(settings: $0, messagingURL: .late { messaging.url }))
            },
            .notifications: { try await buildNotificationsApplication(NotificationsConfiguration(settings: $0)) },
            .messaging: {
                try await buildMessagingApplication(
                    MessagingConfiguration(
                        settings: $0,
                        socialGraph: SocialGraphClient(address: .late { social.url }, token: $0.internalToken)))
            },
            .habits: { settings in
                try await buildHabitsApplication(
                    HabitsConfiguration(
                        settings: settings,
                        followGraph: SocialGraphClient(address: .late { social.url }, token: settings.internalToken)))
            },
            .geo: {
                // The world share compares friends: geo asks social.
                try await buildGeoApplication(
                    GeoConfiguration(settings: $0, socialURL: .late { social.url }, loadGazetteer: false))
            },
        ]) { stack in
            social.url = try #require(stack.serviceURLs[.social])
            messaging.url = try #require(stack.serviceURLs[.messaging])
            let alice = try await stack.register("alice")
            // Signing out ends a session at once: those probes use another user, so alice's token stays good.
            let leaving = try await stack.register("leaving")
            let signOuts: Set<String> = [IdentityPaths.logout, IdentityPaths.logoutAll]
            let document = try await stack.gateway.get("/openapi.json")
            // an outside judge first: the merged document is valid OpenAPI 3.1 (openapi-spec-validator, from .ci/run)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("merged-\(UUID().uuidString).json")
            try document.body.write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            let verdict = try await ExternalProcess.run(["python3", "-m", "openapi_spec_validator", file.path])
            #expect(String(decoding: verdict, as: UTF8.self).contains("OK"))
            let paths = try #require(document.object["paths"] as? [String: [String: Any]])
            #expect(
                paths.count >= 50, "identity's, the social graph's, the household's and the notifications' operations")
            #expect(paths[NotificationsPaths.notifications] != nil)
            #expect(paths[MessagingPaths.search] != nil, "messaging's operations are merged in")
            #expect(paths[GeoPaths.map] != nil)
            for (template, operations) in paths.sorted(by: { $0.key < $1.key }) {
                let path = template.replacingOccurrences(
                    of: #"\{[^}]+\}"#, with: "placeholder", options: .regularExpression)
                for (method, operation) in operations.sorted(by: { $0.key < $1.key }) {
                    let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                    let documented = Set(responses.keys)
                    // A live stream never ends: LiveStreamTests cover it.
                    let ok = (responses["200"] as? [String: Any])?["content"] as? [String: Any]
                    if ok?["text/event-stream"] != nil { continue }
                    let hasBody = ["post", "put", "patch"].contains(method)
                    let response = try await stack.gateway.send(
                        .init(rawValue: method.uppercased()), path,
                        token: signOuts.contains(template) ? leaving.accessToken : alice.accessToken,
                        body: hasBody ? Data("{}".utf8) : nil,
                        headers: hasBody ? [("Content-Type", "application/json")] : [])
                    #expect(
                        documented.contains(String(response.status)),
                        "\(method.uppercased()) \(template) answered \(response.status): \(response.text.prefix(200))")
                    #expect(response.status < 500, "\(method.uppercased()) \(template) must not fail on a probe")
                }
            }
        }
    }
}
