import Foundation
import PlatformKit
import TestSupport
import Testing

/// "Sign in with Google/Facebook" against a local OpenID Connect issuer, each sign-in with a nonce identity issued.
@Suite struct OIDCTests {
    func exchange(_ stack: TestStack, _ body: [String: String]) async throws -> APIResponse {
        try await stack.gateway.post(IdentityPaths.oidc, json: body)
    }

    @Test func aNewPersonGetsAnAccountThatThenChoosesAUsername() async throws {
        try await withTestStack { stack in
            let first = try await exchange(
                stack, try await stack.googleIDToken(subject: "google-123", email: "traveller@gmail.com"))
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
                stack, try await stack.googleIDToken(subject: "google-123", email: "traveller@gmail.com"))
            #expect(try again.decode(WireTokenPair.self).user.id == user.id)
        }
    }

    @Test func aVerifiedEmailLinksTheExistingAccount() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            // linking by e-mail needs the address verified here too (issue 16, item 4)
            let code = try EmailVerificationTests.linkToken(in: await stack.smtp.nextMessage())
            #expect(try await stack.gateway.post(IdentityPaths.verifyEmail, json: ["token": code]).status == 200)
            let response = try await exchange(
                stack, try await stack.googleIDToken(subject: "google-alice", email: "alice@example.com"))
            #expect(response.status == 200)
            #expect(try response.decode(WireTokenPair.self).user.id == alice.id)
        }
    }

    @Test func anUnverifiedEmailNeverTakesOverAnAccount() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let response = try await exchange(
                stack,
                try await stack.googleIDToken(subject: "attacker", email: "alice@example.com", emailVerified: false))
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
            let body = try await stack.googleIDToken(
                subject: "fb-123", email: "someone@example.com", emailVerified: false, name: "Zoë Traveller")
            // when
            let first = try await exchange(stack, body)
            // then
            #expect(first.status == 200)
            let user = try first.decode(WireTokenPair.self).user
            #expect(user.email == nil && !user.emailVerified)
            #expect(user.displayName == "Zoë Traveller")
            // and the identity signs in to the same account again
            let again = try await exchange(
                stack,
                try await stack.googleIDToken(subject: "fb-123", email: "someone@example.com", emailVerified: false))
            #expect(try again.decode(WireTokenPair.self).user.id == user.id)
            #expect(stack.smtp.messages.isEmpty, "nothing is mailed to an address nobody vouched for")
        }
    }

    @Test func badIDTokensAreRejected() async throws {
        try await withTestStack { stack in
            let now = stack.clock.now
            func signed(audience: String? = nil, issuer: String? = nil, at time: Date = now) async throws
                -> [String: String]
            {
                let nonce = try await stack.oidcNonce()
                let token = try await stack.oidc.idToken(
                    subject: "s", email: "s@x.com", nonce: nonce, audience: audience, issuer: issuer, now: time)
                return ["provider": "google", "idToken": token, "nonce": nonce]
            }
            var forged = try await signed()
            var parts = forged["idToken", default: ""].split(separator: ".").map(String.init)
            parts[2] = String(parts[2].reversed())
            forged["idToken"] = parts.joined(separator: ".")
            var garbage = try await signed()
            garbage["idToken"] = "garbage"
            // a nonce identity issued, but not the one the token carries
            var otherNonce = try await signed()
            otherNonce["nonce"] = try await stack.oidcNonce()
            for body in [
                try await signed(audience: "someone-else"), try await signed(issuer: "https://evil.test"),
                try await signed(at: now.addingTimeInterval(-7200)), forged, garbage, otherNonce,
            ] {
                let response = try await exchange(stack, body)
                #expect(response.status == 401)
                #expect(response.problem?.code == "invalid_id_token")
            }
            var unknownProvider = try await signed()
            unknownProvider["provider"] = "myspace"
            let unknown = try await exchange(stack, unknownProvider)
            #expect(unknown.status == 400)
            #expect(unknown.problem?.code == "unknown_provider")
            #expect(try await exchange(stack, try await signed()).status == 200)
        }
    }

    @Test func anIDTokenSignsInOnceAndOnlyWithTheNonceIdentityIssued() async throws {
        try await withTestStack { stack in
            // given an app that asked identity for a nonce through the gateway, with no access token
            let nonced = try await stack.gateway.post(IdentityPaths.oidcNonce)
            #expect(nonced.status == 201)
            let nonce = try nonced.decode(WireNonce.self)
            #expect(abs(nonce.expiresAt.timeIntervalSince(stack.clock.now) - 600) < 1, "valid ten minutes")
            let token = try await stack.oidc.idToken(
                subject: "g-once", email: "once@gmail.com", nonce: nonce.nonce, now: stack.clock.now)
            let body = ["provider": "google", "idToken": token, "nonce": nonce.nonce]
            // when it signs in, then the same ID token is presented again
            let first = try await exchange(stack, body)
            let replay = try await exchange(stack, body)
            // then
            #expect(first.status == 200)
            #expect(replay.status == 401)
            #expect(replay.problem?.code == "invalid_nonce")
            // and a sign-in without a nonce names the field
            let bare = try await exchange(stack, ["provider": "google", "idToken": token])
            #expect(bare.status == 400)
            #expect(bare.problem?.detail == "nonce: is required.")
        }
    }
}
