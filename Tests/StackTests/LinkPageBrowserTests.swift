import Foundation
import PlatformKit
import TestSupport
import Testing

/// The pages behind mailed links, driven in a real headless browser as a person would, through the gateway.
@Suite(.serialized, .enabled(if: HeadlessBrowser.isAvailable, "chromium and chromium-driver are not installed"))
struct LinkPageBrowserTests {
    /// The link in a caught mail, pointed at this stack's gateway (the mail names the configured public origin).
    func link(in mail: FakeSMTPServer.Message, path: String, stack: TestStack) throws -> String {
        let token = try EmailVerificationTests.linkToken(in: mail)
        #expect(mail.data.contains("\(path)?token=\(token)"))
        return "\(stack.gateway.baseURL)\(path)?token=\(token)"
    }

    func login(_ stack: TestStack, _ password: String) async throws -> Int {
        try await stack.gateway.post(IdentityPaths.login, json: ["identifier": "alice", "password": password]).status
    }

    func aliceAskedForAReset(_ stack: TestStack) async throws -> String {
        _ = try await stack.register("alice")
        _ = await stack.smtp.nextMessage()
        _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
        return try link(in: await stack.smtp.nextMessage(), path: IdentityPaths.resetPasswordPage, stack: stack)
    }

    @Test func aPersonResetsThePasswordFromTheMailedLinkAndSignsInWithIt() async throws {
        try await withTestStack { stack in
            let url = try await aliceAskedForAReset(stack)
            // a weak password is refused by the page with the API's policy, and the link still works
            let weak = try await HeadlessBrowser.visit(url, password: "aaaaaaaaaaaa")
            #expect(weak.heading == "Choose a new password")
            #expect(weak.after?.heading == "Choose a new password")
            // when
            let visit = try await HeadlessBrowser.visit(url, password: "a brand new passphrase")
            // then
            #expect(visit.after?.heading == "Your password was changed", "\(visit)")
            // Chrome's hints ("[DOM] ...") are advice; a CSP violation or a failed load is an error.
            let errors = visit.console.filter {
                $0.contains("Refused") || $0.contains("Content Security Policy") || $0.contains("Failed to load")
            }
            #expect(errors.isEmpty, "no Content-Security-Policy violation or failed load: \(errors)")
            #expect(try await login(stack, "a brand new passphrase") == 200)
            #expect(try await login(stack, "a long enough passphrase") == 401)
            // and the used link says so
            let reused = try await HeadlessBrowser.visit(url)
            #expect(reused.heading == "This link no longer works")
            #expect(reused.text.contains("expired or was already used"))
        }
    }

    @Test func anExpiredResetLinkSaysSo() async throws {
        try await withTestStack { stack in
            let url = try await aliceAskedForAReset(stack)
            stack.clock.advance(by: 30 * 60 + 1)
            let visit = try await HeadlessBrowser.visit(url)
            #expect(visit.heading == "This link no longer works")
            #expect(try await login(stack, "a long enough passphrase") == 200)
        }
    }

    @Test func aPersonConfirmsTheAddressFromTheMailedLink() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let url = try link(in: await stack.smtp.nextMessage(), path: IdentityPaths.verifyEmailPage, stack: stack)
            // opening the link alone does not confirm (mail scanners open links too)
            let opened = try await HeadlessBrowser.visit(url)
            #expect(opened.heading == "Confirm your e-mail address")
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self)
                    .emailVerified == false)
            // pressing the button does
            let confirmed = try await HeadlessBrowser.visit(url, press: true)
            #expect(confirmed.after?.heading == "Your e-mail address is confirmed")
            #expect(confirmed.after?.text.contains("alice@example.com") == true)
            #expect(
                try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).decode(WireMyProfile.self)
                    .emailVerified == true)
            #expect(try await HeadlessBrowser.visit(url).heading == "This link no longer works")
        }
    }
}

/// The pages' headers and refusals, without a browser.
@Suite struct LinkPageTests {
    @Test func pagesAreSelfContainedAndLeakNothing() async throws {
        try await withTestStack { stack in
            _ = try await stack.register("alice")
            _ = await stack.smtp.nextMessage()
            _ = try await stack.gateway.post(IdentityPaths.forgotPassword, json: ["identifier": "alice"])
            let token = try EmailVerificationTests.linkToken(in: await stack.smtp.nextMessage())
            let page = try await stack.gateway.get("\(IdentityPaths.resetPasswordPage)?token=\(token)")
            #expect(page.status == 200)
            #expect(page.headers.first(name: "content-type") == "text/html; charset=utf-8")
            #expect(page.headers.first(name: "content-security-policy")?.hasPrefix("default-src 'none'") == true)
            #expect(page.headers.first(name: "referrer-policy") == "no-referrer")
            #expect(page.headers.first(name: "cache-control") == "no-store")
            #expect(!page.text.contains("http://") && !page.text.contains("https://"), "no external assets")
            #expect(!page.text.contains("<script") && !page.text.contains("<link"))
            // a hostile token is escaped, never markup
            let hostile = try await stack.gateway.get(
                "\(IdentityPaths.resetPasswordPage)?token=%22%3E%3Cscript%3Ealert(1)%3C/script%3E")
            #expect(hostile.status == 400)
            #expect(!hostile.text.contains("<script"))
            // a JSON post (not the form) is a refusal page, not an error
            let json = try await stack.gateway.post(IdentityPaths.resetPasswordPage, json: ["token": token])
            #expect(json.status == 400)
            // mismatched passwords keep the link usable
            let mismatch = try await stack.gateway.send(
                .POST, IdentityPaths.resetPasswordPage, token: nil,
                body: Data("token=\(token)&newPassword=a+brand+new+passphrase&confirmPassword=other".utf8),
                headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(mismatch.status == 400)
            #expect(mismatch.text.contains("not the same"))
            let good = try await stack.gateway.send(
                .POST, IdentityPaths.resetPasswordPage, token: nil,
                body: Data(
                    "token=\(token)&newPassword=a+brand+new+passphrase&confirmPassword=a+brand+new+passphrase".utf8),
                headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(good.status == 200)
            #expect(good.text.contains("Your password was changed"))
        }
    }
}
