import Foundation
import PlatformKit
import TestSupport
import Testing

/// "Sign in with Google/Facebook" against a local OpenID Connect issuer.
@Suite struct OIDCTests {
    func exchange(_ stack: TestStack, _ idToken: String, provider: String = "google", nonce: String? = nil) async throws
        -> APIResponse
    {
        var body = ["provider": provider, "idToken": idToken]
        if let nonce { body["nonce"] = nonce }
        return try await stack.gateway.post(IdentityPaths.oidc, json: body)
    }

    @Test func aNewPersonGetsAnAccountThatThenChoosesAUsername() async throws {
        try await withTestStack { stack in
            let token = try await stack.oidc.idToken(
                subject: "google-123", email: "traveller@gmail.com", now: stack.clock.now)
            let first = try await exchange(stack, token)
            #expect(first.status == 200)
            let signedIn = try first.decode(WireTokenPair.self)
            let user = signedIn.user
            #expect(user.needsUsername == true)
            #expect(user.hasPassword == false)
            #expect(user.emailVerified == true)
            let access = signedIn.accessToken
            let named = try await stack.gateway.patch(
                IdentityPaths.me, token: access, json: ["username": "globetrotter"])
            #expect(named.status == 200)
            #expect(try named.decode(WireMyProfile.self).needsUsername == false)
            // signing in again with the same subject reaches the same account
            let again = try await exchange(
                stack,
                try await stack.oidc.idToken(subject: "google-123", email: "traveller@gmail.com", now: stack.clock.now))
            #expect(try again.decode(WireTokenPair.self).user.id == user.id)
        }
    }

    @Test func aVerifiedEmailLinksTheExistingAccount() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            // linking by e-mail needs the address verified here too (issue 16, item 4)
            let code = try EmailVerificationTests.linkToken(in: await stack.smtp.nextMessage())
            #expect(try await stack.gateway.post(IdentityPaths.verifyEmail, json: ["token": code]).status == 200)
            let token = try await stack.oidc.idToken(
                subject: "google-alice", email: "alice@example.com", now: stack.clock.now)
            let response = try await exchange(stack, token)
            #expect(response.status == 200)
            #expect(try response.decode(WireTokenPair.self).user.id == alice.id)
        }
    }

    @Test func anUnverifiedEmailNeverTakesOverAnAccount() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let token = try await stack.oidc.idToken(
                subject: "attacker", email: "alice@example.com", emailVerified: false, now: stack.clock.now)
            let response = try await exchange(stack, token)
            // a separate account without the address the issuer did not vouch for (issue 18)
            #expect(response.status == 200)
            let user = try response.decode(WireTokenPair.self).user
            #expect(user.id != alice.id)
            #expect(user.email == nil)
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self)
                    .email == "alice@example.com")
        }
    }

    @Test func anUnvouchedSignInKeepsTheNameAndIdentityButNotTheEmail() async throws {
        try await withTestStack { stack in
            // given a provider that does not vouch for the address (Facebook sends no email_verified)
            let token = try await stack.oidc.idToken(
                subject: "fb-123", email: "someone@example.com", emailVerified: false, name: "Zoë Traveller",
                now: stack.clock.now)
            // when
            let first = try await exchange(stack, token)
            // then
            #expect(first.status == 200)
            let user = try first.decode(WireTokenPair.self).user
            #expect(user.email == nil && !user.emailVerified)
            #expect(user.displayName == "Zoë Traveller")
            // and the identity signs in to the same account again
            let again = try await exchange(
                stack,
                try await stack.oidc.idToken(
                    subject: "fb-123", email: "someone@example.com", emailVerified: false, now: stack.clock.now))
            #expect(try again.decode(WireTokenPair.self).user.id == user.id)
            #expect(stack.smtp.messages.isEmpty, "nothing is mailed to an address nobody vouched for")
        }
    }

    @Test func badIDTokensAreRejected() async throws {
        try await withTestStack { stack in
            let now = stack.clock.now
            let wrongAudience = try await stack.oidc.idToken(
                subject: "s", email: "s@x.com", audience: "someone-else", now: now)
            let wrongIssuer = try await stack.oidc.idToken(
                subject: "s", email: "s@x.com", issuer: "https://evil.test", now: now)
            let expired = try await stack.oidc.idToken(
                subject: "s", email: "s@x.com", now: now.addingTimeInterval(-7200))
            let valid = try await stack.oidc.idToken(subject: "s", email: "s@x.com", nonce: "n-1", now: now)
            var parts = valid.split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            let forged = parts.joined(separator: ".")
            for (token, nonce) in [
                (wrongAudience, nil), (wrongIssuer, nil), (expired, nil), (forged, nil), ("garbage", nil),
                (valid, "other-nonce"),
            ] {
                let response = try await exchange(stack, token, nonce: nonce)
                #expect(response.status == 401)
                #expect(response.problem?.code == "invalid_id_token")
            }
            let unknownProvider = try await exchange(stack, valid, provider: "myspace")
            #expect(unknownProvider.status == 400)
            #expect(unknownProvider.problem?.code == "unknown_provider")
            #expect(try await exchange(stack, valid, nonce: "n-1").status == 200)
        }
    }
}
