import Foundation
import PlatformKit
import TestSupport
import Testing

/// E-mail verification, and what it guards: linking Google/Facebook to an existing account (issue 16, item 4).
@Suite struct EmailVerificationTests {
    /// The token in a verification (or reset) e-mail's link.
    static func linkToken(in message: FakeSMTPServer.Message) throws -> String {
        let line = try #require(message.data.split(separator: "\n").first { $0.contains("token=") })
        let token = line[line.range(of: "token=")!.upperBound...].prefix { !$0.isWhitespace && $0 != "\"" && $0 != "&" }
        return String(token)
    }

    /// The six-digit code a person would type, from the same e-mail.
    static func typedCode(in message: FakeSMTPServer.Message) throws -> String {
        let line = try #require(
            message.data.split(separator: "\n").first { $0.hasPrefix("Or enter this code in the app: ") })
        return String(line.dropFirst("Or enter this code in the app: ".count)).trimmingCharacters(in: .whitespaces)
    }

    func verify(_ stack: TestStack, _ token: String) async throws -> APIResponse {
        try await stack.gateway.post(IdentityPaths.verifyEmail, json: ["token": token])
    }

    func google(_ stack: TestStack, subject: String, email: String) async throws -> APIResponse {
        try await stack.gateway.post(
            IdentityPaths.oidc, json: try await stack.googleIDToken(subject: subject, email: email))
    }

    @Test func registrationMailsALinkThatVerifiesTheAddressOnce() async throws {
        try await withTestStack { stack in
            // given
            let alice = try await stack.register("alice")
            let mail = await stack.smtp.nextMessage()
            #expect(mail.recipients == ["alice@example.com"])
            #expect(mail.data.contains("Subject: Confirm your e-mail address"))
            let token = try Self.linkToken(in: mail)
            #expect(mail.data.contains("verify-email?token=\(token)"))
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self)
                    .emailVerified == false)
            // when
            let verified = try await verify(stack, token)
            // then
            #expect(verified.status == 200)
            #expect(try verified.decode(WireMyProfile.self).emailVerified == true)
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self)
                    .emailVerified == true)
            let again = try await verify(stack, token)
            #expect(again.status == 400)
            #expect(again.problem?.code == "invalid_verification_token")
        }
    }

    @Test func aVerificationLinkExpiresAfterADayAndForgedOnesAreRefused() async throws {
        try await withTestStack { stack in
            _ = try await stack.register("alice")
            let token = try Self.linkToken(in: await stack.smtp.nextMessage())
            stack.clock.advance(by: 24 * 3600 + 1)
            #expect(try await verify(stack, token).problem?.code == "invalid_verification_token")
            for forged in ["", "made-up", String(repeating: "a", count: 300)] {
                let response = try await verify(stack, forged)
                #expect(response.status == 400)
                #expect(response.problem?.code == "invalid_verification_token")
            }
        }
    }

    @Test func resendingIsForTheSignedInUnverifiedAccountAndRateLimited() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            _ = await stack.smtp.nextMessage()
            #expect(try await stack.gateway.post(IdentityPaths.resendVerification).status == 401)
            for _ in 0..<3 {
                #expect(
                    try await stack.gateway.post(IdentityPaths.resendVerification, token: alice.accessToken).status
                        == 202)
            }
            let limited = try await stack.gateway.post(IdentityPaths.resendVerification, token: alice.accessToken)
            #expect(limited.status == 429)
            #expect(limited.headers.first(name: "Retry-After") != nil)
            // the newest link works; then there is nothing left to verify
            var last = await stack.smtp.nextMessage()
            for _ in 0..<2 { last = await stack.smtp.nextMessage() }
            #expect(try await verify(stack, try Self.linkToken(in: last)).status == 200)
            let done = try await stack.gateway.post(IdentityPaths.resendVerification, token: alice.accessToken)
            #expect(done.status == 409)
            #expect(done.problem?.code == "email_already_verified")
        }
    }

    /// The pre-registration takeover: a squatter registers the owner's address; the owner then signs in with
    /// Google. Today's main linked Google to the squatter's account, whose password kept working.
    @Test func googleSignInDoesNotLinkToAnAccountWhoseAddressIsUnverified() async throws {
        try await withTestStack { stack in
            // given
            let squatter = try await stack.register("squatter", email: "victim@example.com")
            // when
            let owner = try await google(stack, subject: "google-victim", email: "victim@example.com")
            // then
            #expect(owner.status == 409)
            #expect(owner.problem?.code == "account_exists")
            #expect(owner.problem?.detail?.contains("link") == true)
            let tokens = try owner.decode(WireAnyTokens.self)
            #expect(tokens.accessToken == nil && tokens.refreshToken == nil)
            let identities = try await stack.gateway.get(IdentityPaths.identities, token: squatter.accessToken)
            #expect(try identities.decode(WireItems<WireLinkedIdentity>.self).items.isEmpty)
        }
    }

    @Test func googleSignInLinksAnAccountWhoseAddressIsVerified() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            #expect(try await verify(stack, try Self.linkToken(in: await stack.smtp.nextMessage())).status == 200)
            let response = try await google(stack, subject: "google-alice", email: "alice@example.com")
            #expect(response.status == 200)
            #expect(try response.decode(WireTokenPair.self).user.id == alice.id)
        }
    }

    @Test func signedInUsersLinkAndUnlinkProvidersButNeverTheLastWayIn() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let bob = try await stack.register("bob")
            // each ID token carries a nonce of its own, used once (issue 41)
            let body = { try await stack.googleIDToken(subject: "g-alice", email: "alice.other@gmail.com") }
            // when alice links her Google account (the ID token is the proof; the addresses may differ)
            let linked = try await stack.gateway.post(
                IdentityPaths.identities, token: alice.accessToken, json: try await body())
            #expect(linked.status == 201)
            let list = try await stack.gateway.get(IdentityPaths.identities, token: alice.accessToken)
            #expect(try list.decode(WireItems<WireLinkedIdentity>.self).items.map(\.provider) == ["google"])
            // then Google signs her in, and nobody else may claim it
            let signIn = try await stack.gateway.post(IdentityPaths.oidc, json: try await body())
            #expect(try signIn.decode(WireTokenPair.self).user.id == alice.id)
            let stolen = try await stack.gateway.post(
                IdentityPaths.identities, token: bob.accessToken, json: try await body())
            #expect(stolen.status == 409)
            #expect(stolen.problem?.code == "identity_linked_elsewhere")
            #expect(
                try await stack.gateway.get(IdentityPaths.identities, token: bob.accessToken)
                    .decode(WireItems<WireLinkedIdentity>.self).items.isEmpty)
            // bob cannot unlink alice's; alice can (she has a password)
            #expect(
                try await stack.gateway.delete(IdentityPaths.identities + "/google", token: bob.accessToken).status
                    == 404)
            #expect(
                try await stack.gateway.delete(IdentityPaths.identities + "/google", token: alice.accessToken).status
                    == 204)
            #expect(
                try await stack.gateway.delete(IdentityPaths.identities + "/myspace", token: alice.accessToken).status
                    == 400)
            // an account made through Google has no other way in
            let newcomer = try await google(stack, subject: "g-new", email: "new@gmail.com")
            let access = try newcomer.decode(WireTokenPair.self).accessToken
            let last = try await stack.gateway.delete(IdentityPaths.identities + "/google", token: access)
            #expect(last.status == 409)
            #expect(last.problem?.code == "last_sign_in_method")
        }
    }
}

/// A reuse inside the grace window joins the one live chain (issue 16, item 5).
@Suite struct RefreshChainTests {
    func refresh(_ stack: TestStack, _ token: String) async throws -> APIResponse {
        try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": token])
    }

    @Test func aReuseInsideTheGraceWindowGetsTheSameSuccessorAndLeavesOneChain() async throws {
        try await withTestStack { stack in
            // given two requests of one app racing with the same refresh token
            let alice = try await stack.register("alice")
            let first = try await refresh(stack, alice.refreshToken)
            stack.clock.advance(by: 2)
            let racer = try await refresh(stack, alice.refreshToken)
            // then both hold the same successor: one chain, and neither is signed out
            #expect(first.status == 200 && racer.status == 200)
            let racing = try racer.decode(WireTokenPair.self)
            let next = try first.decode(WireTokenPair.self).refreshToken
            #expect(racing.refreshToken == next)
            #expect(try await stack.gateway.get(IdentityPaths.me, token: racing.accessToken).status == 200)
            // the chain moves on once; the racer, late again within the window, joins it where it is
            let second = try await refresh(stack, next)
            let secondRacer = try await refresh(stack, next)
            let head = try second.decode(WireTokenPair.self).refreshToken
            #expect(try secondRacer.decode(WireTokenPair.self).refreshToken == head)
            // a reuse of the very first token within its window also lands on the head, not on a new chain
            #expect(try await refresh(stack, alice.refreshToken).decode(WireTokenPair.self).refreshToken == head)
            // when the window has passed, only the head works: an old token is a theft and ends the session
            stack.clock.advance(by: 30)
            let theft = try await refresh(stack, next)
            #expect(theft.problem?.code == "refresh_token_reused")
            #expect(try await refresh(stack, head).problem?.code == "invalid_refresh_token")
        }
    }

    @Test func afterTheWindowTheHeadIsTheOnlyLiveToken() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let next = try await refresh(stack, alice.refreshToken).decode(WireTokenPair.self).refreshToken
            _ = try await refresh(stack, alice.refreshToken)
            stack.clock.advance(by: 30)
            let moved = try await refresh(stack, next)
            #expect(moved.status == 200)
            #expect(try moved.decode(WireTokenPair.self).sessionId == alice.sessionID)
        }
    }
}

/// bcrypt hashes up to a NUL byte: such passwords are refused wherever a password is set (issue 16, item 7).
@Suite struct NULPasswordTests {
    @Test func aPasswordWithANULByteIsRefusedAtRegistrationAndChange() async throws {
        try await withTestStack { stack in
            let cut = try await stack.gateway.post(
                IdentityPaths.register,
                json: ["email": "nul@example.com", "username": "nulnul", "password": "a\u{0}bcdefghijk long"])
            #expect(cut.status == 400)
            #expect(cut.problem?.code == "invalid_password")
            #expect(cut.problem?.detail?.contains("password") == true)
            // nothing was stored: "a" signs nobody in
            #expect(
                try await stack.gateway.post(IdentityPaths.login, json: ["identifier": "nulnul", "password": "a"])
                    .status == 401)
            let alice = try await stack.register("alice")
            let change = try await stack.gateway.post(
                IdentityPaths.changePassword, token: alice.accessToken,
                json: ["currentPassword": alice.password, "newPassword": "another\u{0} long passphrase"])
            #expect(change.status == 400)
            #expect(change.problem?.code == "invalid_new_password")
        }
    }
}
