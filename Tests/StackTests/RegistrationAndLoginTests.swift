import Foundation
import PlatformKit
import TestSupport
import Testing

/// Sign-up and sign-in through the gateway, with every kind of bad input.
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

    @Test func usernamesAndEmailsAreUniqueIgnoringCase() async throws {
        try await withTestStack { stack in
            _ = try await stack.register("alice")
            let sameName = try await stack.gateway.post(
                IdentityPaths.register,
                json: ["email": "other@example.com", "username": "ALICE", "password": "a long enough passphrase"])
            #expect(sameName.status == 409)
            #expect(sameName.problem?.code == "username_taken")
            let sameEmail = try await stack.gateway.post(
                IdentityPaths.register,
                json: ["email": "Alice@Example.com", "username": "alice2", "password": "a long enough passphrase"])
            #expect(sameEmail.status == 409)
            #expect(sameEmail.problem?.code == "email_taken")
        }
    }

    @Test(arguments: [
        (["email": "a@example.com", "username": "bob", "password": "short"], "weak_password"),
        (["email": "a@example.com", "username": "bob", "password": "1234567890"], "weak_password"),
        (["email": "a@example.com", "username": "bobby", "password": "bobby is my name ok"], "weak_password"),
        (
            ["email": "a@example.com", "username": "bob", "password": String(repeating: "x1", count: 37)],
            "weak_password"
        ),
        (["email": "not-an-email", "username": "bob", "password": "a long enough passphrase"], "invalid_email"),
        (["email": "a@example.com", "username": "b", "password": "a long enough passphrase"], "invalid_username"),
        (
            ["email": "a@example.com", "username": "bob smith", "password": "a long enough passphrase"],
            "invalid_username"
        ),
        (
            [
                "email": "a@example.com", "username": String(repeating: "b", count: 31),
                "password": "a long enough passphrase",
            ], "invalid_username"
        ),
        (
            [
                "email": "a@example.com", "username": "bob", "password": "a long enough passphrase",
                "displayName": String(repeating: "d", count: 51),
            ], "invalid_display_name"
        ),
        (
            [
                "email": "a@example.com", "username": "bob", "password": "a long enough passphrase",
                "displayName": "tab\u{0007}bell",
            ], "invalid_display_name"
        ),
    ])
    func badRegistrationsAreClearProblems(body: [String: String], code: String) async throws {
        try await withTestStack { stack in
            let response = try await stack.gateway.post(IdentityPaths.register, json: body)
            #expect(response.status == 400)
            #expect(response.problem?.code == code)
            // nothing was stored: the same username can still be registered properly
            let retry = try await stack.gateway.post(
                IdentityPaths.register,
                json: ["email": "ok@example.com", "username": "bob", "password": "a long enough passphrase"])
            #expect(retry.status == 201)
        }
    }

    @Test func limitsAreInclusive() async throws {
        try await withTestStack { stack in
            let longest = String(repeating: "u", count: 30)
            let response = try await stack.gateway.post(
                IdentityPaths.register,
                json: [
                    "email": "limits@example.com", "username": longest, "password": "ten chars!",
                    "displayName": String(repeating: "d", count: 50),
                ])
            #expect(response.status == 201)
        }
    }

    @Test(arguments: [
        (#"{"email": "a@example.com", "username": "bob""#, nil),
        (#"{"email": "a@example.com", "username": "bob"}"#, Problem.FieldError(field: "password", reason: "is required.")),
        (
            #"{"email": 42, "username": "bob", "password": "a long enough passphrase"}"#,
            Problem.FieldError(field: "email", reason: "must be a string.")
        ),
        (#"[]"#, Problem.FieldError(field: "", reason: "must be an object.")),
        ("", nil),
    ])
    func malformedBodiesAreBadRequestsNamingTheFieldInTheClientsWords(raw: String, error: Problem.FieldError?)
        async throws
    {
        try await withTestStack { stack in
            let response = try await stack.gateway.post(IdentityPaths.register, raw: raw)
            #expect(response.status == 400)
            #expect(response.problem?.code == "invalid_body")
            #expect(response.problem?.errors == error.map { [$0] })
            #expect(response.problem?.detail?.isEmpty == false)
            #expect(response.problem?.detail?.contains("Coding key") == false)
        }
    }

    @Test func logsInWithUsernameOrEmailInAnyCase() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            for identifier in ["alice", "ALICE", "alice@example.com", "Alice@Example.COM"] {
                let response = try await stack.gateway.post(
                    IdentityPaths.login, json: ["identifier": identifier, "password": alice.password])
                #expect(response.status == 200, "login as \(identifier)")
                #expect(try response.decode(WireTokenPair.self).user.id == alice.id)
            }
        }
    }

    @Test func wrongPasswordAndUnknownAccountLookTheSame() async throws {
        try await withTestStack { stack in
            _ = try await stack.register("alice")
            let wrong = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice", "password": "not the password"])
            let unknown = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "nobody", "password": "not the password"])
            #expect(wrong.status == 401)
            #expect(unknown.status == 401)
            #expect(wrong.problem == unknown.problem)
        }
    }

    @Test func repeatedFailuresLockTheAccountUntilTheWindowPasses() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            for _ in 0..<10 {
                let response = try await stack.gateway.post(
                    IdentityPaths.login, json: ["identifier": "alice", "password": "not the password"])
                #expect(response.status == 401)
            }
            // when: the right password, but after ten failures
            let locked = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice", "password": alice.password])
            #expect(locked.status == 429)
            #expect(locked.problem?.code == "rate_limited")
            #expect(Int(locked.headers.first(name: "retry-after") ?? "") ?? 0 > 0)
            // then: once the window has passed, the right password works again
            stack.clock.advance(by: 15 * 60)
            let later = try await stack.gateway.post(
                IdentityPaths.login, json: ["identifier": "alice", "password": alice.password])
            #expect(later.status == 200)
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
