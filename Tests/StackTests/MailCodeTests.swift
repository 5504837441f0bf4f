import Foundation
import PlatformKit
import TestSupport
import Testing

/// The six-digit code each reset and verification mail carries, exchanged with the address for the same action.
@Suite struct MailCodeTests {
    func login(_ stack: TestStack, _ password: String) async throws -> Int {
        try await stack.gateway.post(IdentityPaths.login, json: ["identifier": "alice", "password": password]).status
    }

    /// Alice registered (her verification mail taken) and asked for a reset; answers the reset mail.
    func aliceAskedForAReset(_ stack: TestStack) async throws -> FakeSMTPServer.Message {
        _ = try await stack.register("alice")
        _ = await stack.smtp.nextMessage()
        _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
        return await stack.smtp.nextMessage()
    }

    func reset(_ stack: TestStack, email: String = "alice@example.com", code: String, password: String)
        async throws -> APIResponse
    {
        try await stack.gateway.post(
            IdentityPaths.resetPassword, json: ["email": email, "code": code, "newPassword": password])
    }

    /// A six-digit code that is not `code`.
    func wrong(_ code: String) -> String {
        String(format: "%06d", (Int(code)! + 1) % 1_000_000)
    }

    @Test func aCodeResetsThePasswordOnce() async throws {
        try await withTestStack { stack in
            // given
            let mail = try await aliceAskedForAReset(stack)
            let code = try EmailVerificationTests.typedCode(in: mail)
            #expect(code.count == 6 && code.allSatisfy(\.isASCII) && Int(code) != nil)
            #expect(!mail.data.contains("code in the app: \(try EmailVerificationTests.linkToken(in: mail))"))
            // when the address and code are typed in the app (the address in any case)
            let done = try await reset(
                stack, email: "Alice@Example.com", code: code, password: "a brand new passphrase")
            // then
            #expect(done.status == 200)
            #expect(try await login(stack, "a brand new passphrase") == 200)
            let again = try await reset(stack, code: code, password: "yet another passphrase")
            #expect(again.status == 400)
            #expect(again.problem?.code == "invalid_reset_token")
            // and the link of the same mail is spent too
            let link = try await stack.gateway.post(
                IdentityPaths.resetPassword,
                json: [
                    "token": try EmailVerificationTests.linkToken(in: mail), "newPassword": "yet another passphrase",
                ])
            #expect(link.status == 400)
        }
    }

    @Test func fiveWrongCodesSpendTheMail() async throws {
        try await withTestStack { stack in
            let mail = try await aliceAskedForAReset(stack)
            let code = try EmailVerificationTests.typedCode(in: mail)
            for _ in 0..<5 {
                let answer = try await reset(stack, code: wrong(code), password: "a brand new passphrase")
                #expect(answer.status == 400)
                #expect(answer.problem?.code == "invalid_reset_token")
            }
            // the right code, and the link, no longer work: a fresh request is needed
            #expect(try await reset(stack, code: code, password: "a brand new passphrase").status == 400)
            let link = try await stack.gateway.post(
                IdentityPaths.resetPassword,
                json: [
                    "token": try EmailVerificationTests.linkToken(in: mail), "newPassword": "a brand new passphrase",
                ])
            #expect(link.status == 400)
            #expect(try await login(stack, "a long enough passphrase") == 200)
        }
    }

    @Test func aCodeWorksOnlyWithItsAddressAndExpiresWithTheLink() async throws {
        try await withTestStack { stack in
            let mail = try await aliceAskedForAReset(stack)
            let code = try EmailVerificationTests.typedCode(in: mail)
            _ = try await stack.register("bob")
            #expect(
                try await reset(stack, email: "bob@example.com", code: code, password: "a brand new passphrase").status
                    == 400)
            stack.clock.advance(by: 30 * 60 + 1)
            #expect(try await reset(stack, code: code, password: "a brand new passphrase").status == 400)
            #expect(try await login(stack, "a long enough passphrase") == 200)
        }
    }

    @Test func anAddressGetsAHandfulOfTriesAcrossItsCodes() async throws {
        try await withTestStack { stack in
            let first = try await aliceAskedForAReset(stack)
            for _ in 0..<5 {
                _ = try await reset(stack, code: wrong(try EmailVerificationTests.typedCode(in: first)), password: "x")
            }
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            let code = try EmailVerificationTests.typedCode(in: await stack.smtp.nextMessage())
            for _ in 0..<5 {
                #expect(try await reset(stack, code: wrong(code), password: "x").status == 400)
            }
            // the eleventh try within the hour is refused whatever the code
            let limited = try await reset(stack, code: code, password: "a brand new passphrase")
            #expect(limited.status == 429)
        }
    }

    @Test func malformedCodesNameTheField() async throws {
        try await withTestStack { stack in
            let noCode = try await stack.gateway.post(IdentityPaths.resetPassword, json: ["newPassword": "x"])
            #expect(noCode.status == 400)
            #expect(noCode.problem?.code == "invalid_token")
            for code in ["12345", "1234567", "12345a", "１２３４５６", " 12345"] {
                let bad = try await reset(stack, code: code, password: "a brand new passphrase")
                #expect(bad.status == 400)
                #expect(bad.problem?.code == "invalid_code")
            }
            let noEmail = try await stack.gateway.post(
                IdentityPaths.verifyEmail, json: ["code": "123456", "email": "not an address"])
            #expect(noEmail.problem?.code == "invalid_email")
        }
    }

    @Test func aCodeVerifiesTheAddress() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let code = try EmailVerificationTests.typedCode(in: await stack.smtp.nextMessage())
            let refused = try await stack.gateway.post(
                IdentityPaths.verifyEmail, json: ["email": "alice@example.com", "code": wrong(code)])
            #expect(refused.status == 400)
            #expect(refused.problem?.code == "invalid_verification_token")
            let verified = try await stack.gateway.post(
                IdentityPaths.verifyEmail, json: ["email": "alice@example.com", "code": code])
            #expect(verified.status == 200)
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self)
                    .emailVerified == true)
        }
    }
}
