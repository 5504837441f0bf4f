import Foundation
import PlatformKit
import TestSupport
import Testing

/// Adding or changing an account's e-mail address through a link sent to the new address (issue 18).
@Suite struct EmailChangeTests {
    func change(_ stack: TestStack, _ user: TestUser, to email: String) async throws -> APIResponse {
        try await stack.gateway.post(IdentityPaths.myEmail, token: user.accessToken, json: ["email": email])
    }

    func profile(_ stack: TestStack, _ user: TestUser) async throws -> WireMyProfile {
        try await stack.gateway.get(IdentityPaths.me, token: user.accessToken).decode(WireMyProfile.self)
    }

    @Test func theNewAddressTakesEffectWhenItsLinkIsUsedAndTheOldOneIsTold() async throws {
        try await withTestStack { stack in
            // given
            let alice = try await stack.register("alice")
            _ = await stack.smtp.nextMessage()
            // when
            let asked = try await change(stack, alice, to: "Alice.New@Example.com")
            // then nothing changes yet; the link goes to the new address
            #expect(asked.status == 202)
            _ = try asked.decode(WireStatusMessage.self)
            #expect(try await profile(stack, alice).email == "alice@example.com")
            let mail = await stack.smtp.nextMessage()
            #expect(mail.recipients == ["alice.new@example.com"])
            #expect(mail.data.contains("Subject: Confirm your new e-mail address"))
            // when the link is used
            let verified = try await stack.gateway.post(
                IdentityPaths.verifyEmail, json: ["token": try EmailVerificationTests.linkToken(in: mail)])
            // then
            #expect(verified.status == 200)
            let now = try await profile(stack, alice)
            #expect(now.email == "alice.new@example.com" && now.emailVerified)
            let notice = await stack.smtp.nextMessage()
            #expect(notice.recipients == ["alice@example.com"])
            #expect(notice.data.contains("Subject: Your e-mail address was changed"))
            // and she signs in with the new address
            let login = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice.new@example.com", "password": alice.password])
            #expect(login.status == 200)
        }
    }

    @Test func anAddressOfAnotherAccountIsRefusedWithoutSayingSo() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            _ = await stack.smtp.nextMessage()
            let bob = try await stack.register("bob")
            _ = await stack.smtp.nextMessage()
            // when alice asks for bob's address, and for a free one
            let taken = try await change(stack, alice, to: "bob@example.com")
            let free = try await change(stack, alice, to: "free@example.com")
            // then both answers are the same
            #expect(taken.status == 202 && free.status == 202)
            #expect(
                taken.text.replacingOccurrences(of: "bob@example.com", with: "X")
                    == free.text.replacingOccurrences(of: "free@example.com", with: "X"))
            // bob is told, and gets no link that could move his address
            let toBob = await stack.smtp.nextMessage()
            #expect(toBob.recipients == ["bob@example.com"])
            #expect(!toBob.data.contains("token="))
            _ = await stack.smtp.nextMessage()  // the free address's link
            #expect(try await profile(stack, alice).email == "alice@example.com")
            #expect(try await profile(stack, bob).email == "bob@example.com")
        }
    }

    @Test func anAccountWithoutAnAddressAddsOneWithTheCode() async throws {
        try await withTestStack { stack in
            // given an account made through a provider that did not vouch for its address
            let body = try await stack.googleIDToken(subject: "fb-1", email: "zoe@example.com", emailVerified: false)
            let pair = try await stack.gateway.post(IdentityPaths.oidc, json: body).decode(WireTokenPair.self)
            #expect(pair.user.email == nil)
            // when she adds an address and types the code from the mail
            let asked = try await stack.gateway.post(
                IdentityPaths.myEmail, token: pair.accessToken, json: ["email": "zoe@example.com"])
            #expect(asked.status == 202)
            let mail = await stack.smtp.nextMessage()
            let verified = try await stack.gateway.post(
                IdentityPaths.verifyEmail,
                json: ["email": "zoe@example.com", "code": try EmailVerificationTests.typedCode(in: mail)])
            // then
            #expect(verified.status == 200)
            let me = try await stack.gateway.get(IdentityPaths.me, token: pair.accessToken).decode(WireMyProfile.self)
            #expect(me.email == "zoe@example.com" && me.emailVerified)
        }
    }

    @Test func badAddressesNameTheFieldAndStrangersCannotAsk() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let bad = try await change(stack, alice, to: "not an address")
            #expect(bad.status == 400)
            #expect(bad.problem?.code == "invalid_email")
            let anonymous = try await stack.gateway.post(IdentityPaths.myEmail, json: ["email": "x@example.com"])
            #expect(anonymous.status == 401)
        }
    }
}
