import Foundation
import PlatformKit
import TestSupport
import Testing

/// Sign-up and sign-in through the gateway: its tokens work there, and it tells identity the client's address. Bad
/// input and the account lock are tested on the service's router (`RegistrationRouterTests`).
@Suite struct RegistrationAndLoginTests {
    @Test func registeringReturnsTokensThatWorkThroughTheGateway() async throws {
        try await withTestStack { stack in
            // given
            let alice = try await stack.register("alice")
            // when
            let me = try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken)
            // then
            #expect(me.status == 200)
            let profile = try me.decode(WireMyProfile.self)
            #expect(profile.username == "alice")
            #expect(profile.email == "alice@example.com")
            #expect(profile.needsUsername == false)
            #expect(me.headers.first(name: "x-request-id") != nil)
        }
    }

    @Test func loginsPerClientAddressAreLimited() async throws {
        try await withTestStack(configureIdentity: { $0.limits.loginsPerAddress = 3 }) { stack in
            _ = try await stack.register("alice")
            var statuses: [Int] = []
            for name in ["a1", "a2", "a3", "a4"] {
                statuses.append(
                    try await stack.gateway.post(
                        IdentityPaths.login, json: ["identifier": name, "password": "whatever it is"]
                    ).status)
            }
            #expect(statuses == [401, 401, 401, 429])
        }
    }
}
