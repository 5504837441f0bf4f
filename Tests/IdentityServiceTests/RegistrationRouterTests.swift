import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// Sign-up and sign-in with every kind of bad input, on the service as production builds it (`IdentityRouterTests`).
@Suite struct RegistrationRouterTests {
    let router = IdentityRouterTests()

    struct Answer {
        var status: HTTPResponse.Status
        var problem: Problem?
        var retryAfter: String?
        var body: Data
    }

    /// Posts `raw` unsigned, as a client that is not signed in yet.
    static func post(_ client: some TestClientProtocol, _ path: String, raw: String) async throws -> Answer {
        try await client.execute(
            uri: path, method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: raw)
        ) { response in
            let body = Data(response.body.readableBytesView)
            let problem =
                response.headers[.contentType] == Problem.mediaType
                ? try JSONDecoder().decode(Problem.self, from: body) : nil
            return Answer(
                status: response.status, problem: problem, retryAfter: response.headers[.retryAfter], body: body)
        }
    }

    static func post(_ client: some TestClientProtocol, _ path: String, _ json: [String: String]) async throws -> Answer
    {
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        return try await post(client, path, raw: String(decoding: data, as: UTF8.self))
    }

    static func register(_ client: some TestClientProtocol, _ username: String) async throws {
        let answer = try await post(
            client, IdentityPaths.register,
            ["email": "\(username)@example.com", "username": username, "password": "a long enough passphrase"])
        #expect(answer.status == .created)
    }

    static func login(_ client: some TestClientProtocol, _ identifier: String, _ password: String) async throws
        -> Answer
    {
        try await post(client, IdentityPaths.login, ["identifier": identifier, "password": password])
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
        try await router.app().test(.router) { client in
            let answer = try await Self.post(client, IdentityPaths.register, body)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == code)
            // nothing was stored: the same username can still be registered properly
            let retry = try await Self.post(
                client, IdentityPaths.register,
                ["email": "ok@example.com", "username": "bob", "password": "a long enough passphrase"])
            #expect(retry.status == .created)
        }
    }

    @Test func limitsAreInclusive() async throws {
        try await router.app().test(.router) { client in
            let answer = try await Self.post(
                client, IdentityPaths.register,
                [
                    "email": "limits@example.com", "username": String(repeating: "u", count: 30),
                    "password": "ten chars!", "displayName": String(repeating: "d", count: 50),
                ])
            #expect(answer.status == .created)
        }
    }

    @Test(arguments: [
        (#"{"email": "a@example.com", "username": "bob""#, nil),
        (
            #"{"email": "a@example.com", "username": "bob"}"#,
            Problem.FieldError(field: "password", reason: "is required.")
        ),
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
        try await router.app().test(.router) { client in
            let answer = try await Self.post(client, IdentityPaths.register, raw: raw)
            #expect(answer.status == .badRequest)
            #expect(answer.problem?.code == "invalid_body")
            #expect(answer.problem?.errors == error.map { [$0] })
            #expect(answer.problem?.detail?.isEmpty == false)
            #expect(answer.problem?.detail?.contains("Coding key") == false)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func usernamesAndEmailsAreUniqueIgnoringCase(kind: StoreKind) async throws {
        try await router.app(kind).test(.router) { client in
            try await Self.register(client, "alice")
            let sameName = try await Self.post(
                client, IdentityPaths.register,
                ["email": "other@example.com", "username": "ALICE", "password": "a long enough passphrase"])
            #expect(sameName.status == .conflict)
            #expect(sameName.problem?.code == "username_taken")
            let sameEmail = try await Self.post(
                client, IdentityPaths.register,
                ["email": "Alice@Example.com", "username": "alice2", "password": "a long enough passphrase"])
            #expect(sameEmail.status == .conflict)
            #expect(sameEmail.problem?.code == "email_taken")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func logsInWithUsernameOrEmailInAnyCase(kind: StoreKind) async throws {
        try await router.app(kind).test(.router) { client in
            try await Self.register(client, "alice")
            var users: Set<String> = []
            for identifier in ["alice", "ALICE", "alice@example.com", "Alice@Example.COM"] {
                let answer = try await Self.login(client, identifier, "a long enough passphrase")
                #expect(answer.status == .ok, "login as \(identifier)")
                let pair = try PlatformJSON.decoder.decode(WireTokenPair.self, from: answer.body)
                #expect(pair.user.username == "alice")
                users.insert(pair.user.id)
            }
            #expect(users.count == 1)
        }
    }

    @Test func wrongPasswordAndUnknownAccountLookTheSame() async throws {
        try await router.app().test(.router) { client in
            try await Self.register(client, "alice")
            let wrong = try await Self.login(client, "alice", "not the password")
            let unknown = try await Self.login(client, "nobody", "not the password")
            #expect(wrong.status == .unauthorized)
            #expect(unknown.status == .unauthorized)
            #expect(wrong.problem != nil)
            #expect(wrong.problem == unknown.problem)
        }
    }

    @Test func repeatedFailuresLockTheAccountUntilTheWindowPasses() async throws {
        try await router.app().test(.router) { client in
            try await Self.register(client, "alice")
            for _ in 0..<10 {
                #expect(try await Self.login(client, "alice", "not the password").status == .unauthorized)
            }
            // when: the right password, but after ten failures
            let locked = try await Self.login(client, "alice", "a long enough passphrase")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.problem?.code == "rate_limited")
            #expect(Int(locked.retryAfter ?? "") ?? 0 > 0)
            // then: once the window has passed, the right password works again
            router.clock.advance(by: 15 * 60)
            #expect(try await Self.login(client, "alice", "a long enough passphrase").status == .ok)
        }
    }
}
