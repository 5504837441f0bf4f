import Foundation
import PlatformKit
import TestSupport
import Testing

/// Changing a password, and recovering an account by e-mail, delivered over SMTP to a local server.
@Suite struct PasswordTests {
    func login(_ stack: TestStack, _ identifier: String, _ password: String) async throws -> Int {
        try await stack.gateway.post(IdentityPaths.login, json: ["identifier": identifier, "password": password]).status
    }

    /// Registers a user and takes the verification mail that registration sends, so the next mail is the test's.
    func register(_ stack: TestStack, _ username: String) async throws -> TestUser {
        let user = try await stack.register(username)
        _ = await stack.smtp.nextMessage()
        return user
    }

    /// The reset token in a reset e-mail.
    func token(in message: FakeSMTPServer.Message) throws -> String {
        try EmailVerificationTests.linkToken(in: message)
    }

    @Test func changingThePasswordSignsOutOtherDevicesAndSendsANotice() async throws {
        try await withTestStack { stack in
            let alice = try await register(stack, "alice")
            let phone = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice", "password": alice.password])
            let phoneRefresh = try phone.decode(WireTokenPair.self).refreshToken
            // when
            let changed = try await stack.gateway.post(
                IdentityPaths.changePassword, token: alice.accessToken,
                json: ["currentPassword": alice.password, "newPassword": "another long passphrase"])
            // then
            #expect(changed.status == 200)
            #expect(try await login(stack, "alice", alice.password) == 401)
            #expect(try await login(stack, "alice", "another long passphrase") == 200)
            #expect(
                try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": phoneRefresh]).status == 401)
            #expect(
                try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": alice.refreshToken]).status
                    == 200)
            let notice = await stack.smtp.nextMessage()
            #expect(notice.recipients == ["alice@example.com"])
            #expect(notice.data.contains("Subject: Your password was changed"))
        }
    }

    @Test func forgotPasswordAnswersTheSameWhetherOrNotTheAccountExists() async throws {
        try await withTestStack { stack in
            _ = try await register(stack, "alice")
            let known = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            let unknown = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "nobody"])
            let unknownEmail = try await stack.gateway.post(
                IdentityPaths.forgotPassword, json: ["identifier": "no@example.com"])
            #expect(known.status == 202)
            #expect(known.status == unknown.status && unknown.status == unknownEmail.status)
            #expect(known.body == unknown.body && unknown.body == unknownEmail.body)
            // only the real account gets mail
            let mail = await stack.smtp.nextMessage()
            #expect(mail.recipients == ["alice@example.com"])
            #expect(stack.smtp.messages.count == 2)
        }
    }

    @Test func aResetTokenSetsThePasswordOnceAndSignsEverythingOut() async throws {
        try await withTestStack { stack in
            let alice = try await register(stack, "alice")
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "ALICE@example.com"])
            let mail = await stack.smtp.nextMessage()
            let token = try token(in: mail)
            #expect(mail.data.contains("reset-password?token=\(token)"))
            // when
            let reset = try await stack.gateway.post(
                IdentityPaths.resetPassword, json: ["token": token, "newPassword": "a brand new passphrase"])
            // then
            #expect(reset.status == 200)
            _ = try reset.decode(WireStatusMessage.self)
            #expect(try reset.decode(WireAnyTokens.self).accessToken == nil, "no automatic sign-in after a reset")
            #expect(try await login(stack, "alice", alice.password) == 401)
            #expect(try await login(stack, "alice", "a brand new passphrase") == 200)
            #expect(
                try await stack.gateway.post(IdentityPaths.refresh, json: ["refreshToken": alice.refreshToken]).status
                    == 401)
            let reused = try await stack.gateway.post(
                IdentityPaths.resetPassword, json: ["token": token, "newPassword": "yet another passphrase"])
            #expect(reused.status == 400)
            #expect(reused.problem?.code == "invalid_reset_token")
            #expect(try await login(stack, "alice", "a brand new passphrase") == 200)
            let notice = await stack.smtp.nextMessage()
            #expect(notice.data.contains("Subject: Your password was changed"))
        }
    }

    @Test func aResetTokenExpiresAfterThirtyMinutes() async throws {
        try await withTestStack { stack in
            let alice = try await register(stack, "alice")
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            let token = try token(in: await stack.smtp.nextMessage())
            stack.clock.advance(by: 30 * 60 + 1)
            let expired = try await stack.gateway.post(
                IdentityPaths.resetPassword, json: ["token": token, "newPassword": "a brand new passphrase"])
            #expect(expired.status == 400)
            #expect(expired.problem?.code == "invalid_reset_token")
            #expect(try await login(stack, "alice", alice.password) == 200)
        }
    }

    @Test func aWeakNewPasswordDoesNotUseUpTheToken() async throws {
        try await withTestStack { stack in
            _ = try await register(stack, "alice")
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            let token = try token(in: await stack.smtp.nextMessage())
            let weak = try await stack.gateway.post(
                IdentityPaths.resetPassword, json: ["token": token, "newPassword": "short"])
            #expect(weak.status == 400)
            #expect(weak.problem?.code == "weak_password")
            let good = try await stack.gateway.post(
                IdentityPaths.resetPassword, json: ["token": token, "newPassword": "a brand new passphrase"])
            #expect(good.status == 200)
        }
    }

    @Test func resetRequestsPerAccountAreLimitedSilently() async throws {
        try await withTestStack { stack in
            _ = try await register(stack, "alice")
            for _ in 0..<5 {
                let response = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
                #expect(response.status == 202)
            }
            for _ in 0..<3 { _ = await stack.smtp.nextMessage() }
            // a fourth and fifth request were answered alike but sent nothing; an hour later it works again
            stack.clock.advance(by: 3600)
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            _ = await stack.smtp.nextMessage()
            #expect(stack.smtp.messages.count == 5)
        }
    }
}
