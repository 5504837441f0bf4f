import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// A password change's and a reset's refusals, on the service as production builds it (`IdentityRouterTests`).
@Suite struct PasswordRouterTests {
    let router = IdentityRouterTests()

    @Test func changingThePasswordNeedsTheCurrentOneAndAStrongNewOne() async throws {
        try await router.app().test(.router) { client in
            let alice = try await router.register(client, "alice")
            func change(_ current: String, _ new: String, _ headers: HTTPFields) async throws -> HTTPResponse.Status {
                try await client.execute(
                    uri: IdentityPaths.changePassword, method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"currentPassword":"\#(current)","newPassword":"\#(new)"}"#)
                ) { $0.status }
            }
            let wrong = try await client.problem(
                .post, IdentityPaths.changePassword, alice.headers,
                #"{"currentPassword":"not my password","newPassword":"another long passphrase"}"#)
            #expect(wrong.statusCode == 403)
            #expect(wrong.code == "invalid_current_password")
            let weak = try await client.problem(
                .post, IdentityPaths.changePassword, alice.headers,
                #"{"currentPassword":"plum tree sky 42","newPassword":"short"}"#)
            #expect(weak.statusCode == 400)
            #expect(weak.code == "weak_password")
            #expect(try await change("plum tree sky 42", "another long passphrase", [:]) == .unauthorized)
            // nothing changed: the old password still signs in
            let login = try await RegistrationRouterTests.login(client, "alice", "plum tree sky 42")
            #expect(login.status == .ok)
        }
    }

    @Test(arguments: ["", "made-up", String(repeating: "a", count: 43)])
    func forgedResetTokensAreRejected(token: String) async throws {
        try await router.app().test(.router) { client in
            let answer = try await RegistrationRouterTests.post(
                client, IdentityPaths.resetPassword, ["token": token, "newPassword": "a brand new passphrase"])
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == "invalid_reset_token")
        }
    }
}
