import Foundation
import PlatformKit
import SocialService
import TestSupport
import Testing

/// A session's end is immediate (issue 16, item 3): after each way a session ends, its access token is refused
/// with `session_ended` by the gateway, by a service called directly and by identity, within one second.
@Suite struct SessionRevocationTests {
    static let social: [ServiceName: TestStack.ServiceBuilder] = [
        .social: { try await buildSocialApplication(SocialConfiguration(settings: $0)) }
    ]

    /// Asks `path` with `token` until it is refused with `session_ended`: within seconds, not at the token's expiry
    /// 15 minutes on (alone this takes milliseconds; the whole suite on two cores can starve the revocation feed's
    /// long poll for a second or more).
    func refusedPromptly(_ client: APIClient, _ path: String = IdentityPaths.me, token: String) async throws
        -> Bool
    {
        try await eventually {
            let response = try await client.get(path, token: token)
            return response.status == 401 && response.problem?.code == "session_ended"
        }
    }

    /// The token works now through the gateway and at the social service directly (both cache it).
    func expectAccepted(_ stack: TestStack, _ token: String) async throws {
        #expect(try await stack.gateway.get(IdentityPaths.me, token: token).status == 200)
        #expect(try await stack.direct(.social).get(SocialPaths.friends, token: token).status == 200)
    }

    func expectEnded(_ stack: TestStack, _ token: String) async throws {
        #expect(try await refusedPromptly(stack.gateway, token: token))
        #expect(try await refusedPromptly(stack.direct(.social), SocialPaths.friends, token: token))
        #expect(try await refusedPromptly(stack.direct(.identity), token: token))
    }

    func login(_ stack: TestStack, _ user: TestUser) async throws -> (access: String, refresh: String) {
        let response = try await stack.gateway.post(
            IdentityPaths.login, json: ["identifier": user.username, "password": user.password])
        let pair = try response.decode(WireTokenPair.self)
        return (pair.accessToken, pair.refreshToken)
    }

    @Test func signingOutEndsTheAccessTokenAtOnceButNotTheOtherDevices() async throws {
        try await withTestStack(services: Self.social) { stack in
            // given
            let alice = try await stack.register("alice")
            let phone = try await login(stack, alice)
            try await expectAccepted(stack, alice.accessToken)
            // when
            #expect(try await stack.gateway.post(IdentityPaths.logout, token: alice.accessToken).status == 204)
            // then
            try await expectEnded(stack, alice.accessToken)
            try await expectAccepted(stack, phone.access)
        }
    }

    @Test func signingOutEverywhereEndsEveryAccessToken() async throws {
        try await withTestStack(services: Self.social) { stack in
            let alice = try await stack.register("alice")
            let bob = try await stack.register("bob")
            let phone = try await login(stack, alice)
            try await expectAccepted(stack, phone.access)
            #expect(try await stack.gateway.post(IdentityPaths.logoutAll, token: alice.accessToken).status == 204)
            try await expectEnded(stack, alice.accessToken)
            try await expectEnded(stack, phone.access)
            // another user is untouched
            try await expectAccepted(stack, bob.accessToken)
        }
    }

    @Test func endingASessionFromTheListEndsItsAccessToken() async throws {
        try await withTestStack(services: Self.social) { stack in
            let alice = try await stack.register("alice")
            let phone = try await login(stack, alice)
            let list = try await stack.gateway.get(IdentityPaths.sessions, token: alice.accessToken)
            let items = try list.decode(WireItems<WireSession>.self).items
            let phoneSession = try #require(items.first { !$0.current }?.id)
            try await expectAccepted(stack, phone.access)
            let ended = try await stack.gateway.delete(
                IdentityPaths.sessions + "/" + phoneSession, token: alice.accessToken)
            #expect(ended.status == 204)
            try await expectEnded(stack, phone.access)
            try await expectAccepted(stack, alice.accessToken)
        }
    }

    @Test func changingThePasswordEndsTheOtherDevicesAccessTokens() async throws {
        try await withTestStack(services: Self.social) { stack in
            let alice = try await stack.register("alice")
            let phone = try await login(stack, alice)
            try await expectAccepted(stack, phone.access)
            let changed = try await stack.gateway.post(
                IdentityPaths.changePassword, token: alice.accessToken,
                json: ["currentPassword": alice.password, "newPassword": "another long passphrase"])
            #expect(changed.status == 200)
            try await expectEnded(stack, phone.access)
            // the device that changed it stays signed in
            try await expectAccepted(stack, alice.accessToken)
        }
    }

    @Test func resettingThePasswordEndsEveryAccessToken() async throws {
        try await withTestStack(services: Self.social) { stack in
            let alice = try await stack.register("alice")
            _ = await stack.smtp.nextMessage()  // the verification mail
            try await expectAccepted(stack, alice.accessToken)
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            let mail = await stack.smtp.nextMessage()
            let token = try EmailVerificationTests.linkToken(in: mail)
            let reset = try await stack.gateway.post(
                IdentityPaths.resetPassword, json: ["token": token, "newPassword": "a brand new passphrase"])
            #expect(reset.status == 200)
            try await expectEnded(stack, alice.accessToken)
        }
    }

    @Test func aReusedRefreshTokenEndsTheSessionsAccessTokens() async throws {
        try await withTestStack(services: Self.social) { stack in
            let alice = try await stack.register("alice")
            let rotated = try await stack.gateway.post(
                IdentityPaths.refresh, json: ["refreshToken": alice.refreshToken])
            let access = try rotated.decode(WireTokenPair.self).accessToken
            try await expectAccepted(stack, access)
            stack.clock.advance(by: 30)
            let reused = try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": alice.refreshToken])
            #expect(reused.problem?.code == "refresh_token_reused")
            try await expectEnded(stack, access)
            try await expectEnded(stack, alice.accessToken)
        }
    }

    @Test func aSecondGatewayAndAGatewayStartedLaterRefuseTooWhileOthersStillPass() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let bob = try await stack.register("bob")
            let second = try await stack.startGateway("gateway-2")
            #expect(try await second.get(IdentityPaths.me, token: alice.accessToken).status == 200)
            #expect(try await stack.gateway.post(IdentityPaths.logout, token: alice.accessToken).status == 204)
            #expect(try await refusedPromptly(second, token: alice.accessToken))
            // a gateway started after the revocation learns it before it has seen the token
            let late = try await stack.startGateway("gateway-late")
            #expect(try await refusedPromptly(late, token: alice.accessToken))
            #expect(try await late.get(IdentityPaths.me, token: bob.accessToken).status == 200)
            #expect(try await second.get(IdentityPaths.me, token: bob.accessToken).status == 200)
        }
    }

    @Test func theRevocationFeedNeedsTheServiceCredentialAndBoundedParameters() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let identity = stack.direct(.identity)
            let path = IdentityPaths.internalSessionRevocations
            #expect(try await identity.get(path).status == 403)
            #expect(try await identity.get(path, token: alice.accessToken).status == 403)
            let credential = [(PlatformHeaders.internalToken, stack.internalToken)]
            for query in [
                "?after=-1", "?after=x", "?after=99999999999999999999", "?after=0&wait=26", "?after=0&wait=-1",
            ] {
                let response = try await identity.get(path + query, headers: credential)
                #expect(response.status == 400, "\(query)")
            }
            #expect(try await stack.gateway.post(IdentityPaths.logout, token: alice.accessToken).status == 204)
            let all = try await identity.get(path, headers: credential).json(SessionRevocationPage.self)
            #expect(all.items.map(\.sessionId) == [alice.sessionID])
            // after the last entry, with no wait, nothing new
            let none = try await identity.get(path + "?after=\(all.last)&wait=0", headers: credential)
                .json(SessionRevocationPage.self)
            #expect(none.items.isEmpty)
            #expect(none.last == all.last)
            // the gateway does not route internal paths
            #expect(try await stack.gateway.get(path, headers: credential).status != 200)
        }
    }
}
