import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PlatformKit
import ServiceKit
import TestSupport
import Testing

@testable import IdentityService

/// The controllers' edge cases through the router: another user's sessions and pictures, fields named in the
/// client's words, the conditional GET of pictures, and each refusal's status and code.
@Suite struct IdentityRouterTests {
    static let internalToken = "router-test-internal-token"
    static let service: HTTPFields = [HTTPField.Name(PlatformHeaders.internalToken)!: internalToken]
    let clock = ManualClock()

    /// The service as production builds it, on a fresh database of `kind` (SQLite in memory by default).
    func app(_ kind: StoreKind = .sqlite) async throws -> some ApplicationProtocol {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-router-\(UUID())").path
        let database: DatabaseLocation = kind == .sqlite ? .inMemory : try await kind.freshLocation()
        return try await buildIdentityApplication(
            IdentityConfiguration(
                settings: ServiceSettings(
                    service: .identity, database: database, internalToken: Self.internalToken,
                    clock: clock.wallClock),
                signingKey: Curve25519.Signing.PrivateKey(), bcryptCost: 4, mailFolder: folder))
    }

    struct Pair: Decodable {
        var accessToken: String
        var refreshToken: String
        var sessionId: String
        var user: User
        struct User: Decodable { var id: String }
        var headers: HTTPFields { [.authorization: "Bearer \(accessToken)"] }
    }

    func register(_ client: some TestClientProtocol, _ username: String) async throws -> Pair {
        let response = try await client.execute(
            uri: IdentityPaths.register, method: .post,
            body: ByteBuffer(
                string: #"{"email":"\#(username)@example.com","username":"\#(username)","password":"plum tree sky 42"}"#
            ))
        #expect(response.status == .created)
        return try PlatformJSON.decoder.decode(Pair.self, from: Data(response.body.readableBytesView))
    }

    @Test func registrationAndSignInNameWhatIsWrong() async throws {
        try await app().test(.router) { client in
            _ = try await register(client, "alice")
            for (body, status, code) in [
                (#"{"email":"nope","password":"plum tree sky 42"}"#, 400, "invalid_email"),
                (#"{"email":"b@example.com","password":"short"}"#, 400, "weak_password"),
                (#"{"email":"b@example.com","username":"ALICE","password":"plum tree sky 42"}"#, 409, "username_taken"),
                (#"{"email":"alice@example.com","password":"plum tree sky 42"}"#, 409, "email_taken"),
            ] {
                let problem = try await client.problem(.post, IdentityPaths.register, [:], body)
                #expect(problem.statusCode == status && problem.code == code, "\(body)")
            }
            let weak = try await client.problem(
                .post, IdentityPaths.register, [:], #"{"email":"c@example.com","password":"short"}"#)
            #expect(weak.detail == "password must be at least 10 characters.")
            let wrong = try await client.problem(
                .post, IdentityPaths.login, [:], #"{"identifier":"alice","password":"not the one"}"#)
            #expect(wrong.code == "invalid_credentials" && wrong.statusCode == 401)
            let empty = try await client.problem(.post, IdentityPaths.login, [:], #"{"identifier":"","password":""}"#)
            #expect(empty.code == "invalid_credentials_format")
        }
    }

    @Test func aRefreshTokenRotatesOnceAndItsReuseSignsTheSessionOut() async throws {
        try await app().test(.router) { client in
            let alice = try await register(client, "alice")
            let garbage = try await client.problem(.post, IdentityPaths.refresh, [:], #"{"refreshToken":"x"}"#)
            #expect(garbage.code == "invalid_refresh_token")
            let body = #"{"refreshToken":"\#(alice.refreshToken)"}"#
            let rotated = try await client.execute(
                uri: IdentityPaths.refresh, method: .post, body: ByteBuffer(string: body))
            #expect(rotated.status == .ok)
            clock.advance(by: RefreshPolicy.reuseGraceInterval + 1)
            let reused = try await client.problem(.post, IdentityPaths.refresh, [:], body)
            #expect(reused.code == "refresh_token_reused" && reused.statusCode == 401)
        }
    }

    @Test func anotherUsersSessionIsNotFound() async throws {
        try await app().test(.router) { client in
            let alice = try await register(client, "alice")
            let bob = try await register(client, "bob")
            let revoke = try await client.problem(
                .delete, IdentityPaths.sessions + "/\(alice.sessionId)", bob.headers)
            #expect(revoke.statusCode == 404 && revoke.detail == "The session was not found.")
            let mine = try await client.execute(
                uri: IdentityPaths.sessions + "/\(alice.sessionId)", method: .delete, headers: alice.headers)
            #expect(mine.status == .noContent)
        }
    }

    /// A bad directory search names what is wrong (it was a whole-stack test that accepted any 400).
    @Test(arguments: [
        ("?query=", "invalid_query", "query"), ("?query=ann&limit=0", "invalid_limit", "limit"),
        ("?query=ann&limit=101", "invalid_limit", "limit"), ("?query=ann&limit=x", "invalid_limit", "limit"),
        ("?query=ann&cursor=%21%21", "invalid_cursor", "cursor"),
        // A directory cursor whose rank no page makes ({"rank":9,"username":"x"}).
        ("?query=ann&cursor=eyJyYW5rIjo5LCJ1c2VybmFtZSI6IngifQ", "invalid_cursor", "cursor"),
    ])
    func aBadSearchNamesItsParameter(query: String, code: String, parameter: String) async throws {
        try await app().test(.router) { client in
            let searcher = try await register(client, "searcher")
            let problem = try await client.problem(.get, IdentityPaths.users + query, searcher.headers)
            #expect(problem.statusCode == 400)
            #expect(problem.code == code, "\(problem)")
            #expect(problem.detail?.contains(parameter) == true, "\(problem)")
        }
    }

    @Test func picturesAreServedWithTheOneConditionalGet() async throws {
        try await app().test(.router) { client in
            let alice = try await register(client, "alice")
            let bob = try await register(client, "bob")
            let png = ByteBuffer(
                bytes: [UInt8](TestImages.png(size: 72)))
            let uploaded = try await client.execute(
                uri: IdentityPaths.me + "/avatar", method: .put, headers: alice.headers, body: png)
            #expect(uploaded.status == .ok)
            let avatar = IdentityPaths.users + "/\(alice.user.id)/avatar"
            let first = try await client.execute(uri: avatar, method: .get, headers: bob.headers)
            #expect(first.status == .ok && first.headers[.contentType] == "image/png")
            #expect(first.headers[.contentLength] == "72" && first.headers[.cacheControl] == StoredBytes.cacheControl)
            let tag = try #require(first.headers[.eTag])
            #expect(tag == EntityTag(of: Data(png.readableBytesView)).description)
            var conditional = bob.headers
            conditional[.ifNoneMatch] = tag
            let again = try await client.execute(uri: avatar, method: .get, headers: conditional)
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let none = try await client.problem(.get, IdentityPaths.users + "/\(bob.user.id)/avatar", alice.headers)
            #expect(none.detail == "The profile picture was not found.")
            let notAnImage = try await client.problem(.put, IdentityPaths.me + "/avatar", alice.headers, "hello")
            #expect(notAnImage.statusCode == 415)
        }
    }

    @Test func providersAndInternalRoutesNameTheirFields() async throws {
        try await app().test(.router) { client in
            let alice = try await register(client, "alice")
            let unknown = try await client.problem(
                .post, IdentityPaths.oidc, [:], #"{"provider":"myspace","idToken":"x","nonce":"n"}"#)
            #expect(unknown.code == "unknown_provider" && unknown.detail == "Sign-in with 'myspace' is not configured.")
            let unlink = try await client.problem(.delete, IdentityPaths.identities + "/myspace", alice.headers)
            #expect(unlink.detail == "provider: sign-in with 'myspace' is not configured.")
            // No route changes roles any more, not even with the service credential (issue 41): the operator's
            // command does (RoleCommand).
            let roles = try await client.execute(
                uri: "/internal/users/\(alice.user.id)/roles", method: .put, headers: Self.service,
                body: ByteBuffer(string: #"{"roles":["admin"]}"#))
            #expect(roles.status == .notFound)
            let nobody = try await client.problem(.get, IdentityPaths.internalUserByUsername + "/nobody", Self.service)
            #expect(nobody.statusCode == 404)
            let resent = try await client.execute(
                uri: IdentityPaths.resendVerification, method: .post, headers: alice.headers)
            #expect(resent.status == .accepted)
        }
    }

    @Test(arguments: [
        (
            IdentityError.invalidField("newPassword", "must not contain a NUL character."), 400, "invalid_new_password",
            "newPassword: must not contain a NUL character."
        ),
        (
            .weakPassword(field: "password", "is too common or too easy to guess."), 400, "weak_password",
            "password is too common or too easy to guess."
        ),
        (.notFound("The user"), 404, "not_found", "The user was not found."),
        (.usernameTaken("alice"), 409, "username_taken", "The username 'alice' is taken."),
        (.emailTaken, 409, "email_taken", "An account with this e-mail address exists."),
        (.invalidCredentials, 401, "invalid_credentials", "The username, e-mail or password is not correct."),
        (.invalidCurrentPassword, 403, "invalid_current_password", "The current password is not correct."),
        (.invalidRefreshToken, 401, "invalid_refresh_token", "The refresh token is not valid; sign in again."),
        (
            .refreshTokenReused, 401, "refresh_token_reused",
            "This refresh token was already used; the session has been signed out."
        ),
        (.sessionExpired, 401, "session_expired", "This session has expired; sign in again."),
        (
            .invalidNonce, 401, "invalid_nonce",
            "nonce: not one this server issued, or already used or expired; ask for a new one."
        ),
        (
            .invalidResetToken, 400, "invalid_reset_token",
            "The reset link is invalid, used or expired; ask for a new one."
        ),
        (
            .invalidVerificationToken, 400, "invalid_verification_token",
            "token: the verification link is invalid, used or expired; ask for a new one."
        ),
        (.noEmail, 409, "no_email", "The account has no e-mail address to verify."),
        (.emailAlreadyVerified, 409, "email_already_verified", "The e-mail address is already verified."),
        (.unknownProvider("google"), 400, "unknown_provider", "Sign-in with 'google' is not configured."),
        (.invalidIDToken("The ID token has expired."), 401, "invalid_id_token", "The ID token has expired."),
        (.providerUnavailable("google"), 503, "service_unavailable", "The google service is not reachable right now."),
        (
            .accountExists, 409, "account_exists",
            "An account with this e-mail exists; sign in with its password, then link this provider from your account settings."
        ),
        (
            .identityLinkedElsewhere(provider: "google"), 409, "identity_linked_elsewhere",
            "This google account is linked to another account."
        ),
        (
            .lastSignInMethod, 409, "last_sign_in_method",
            "This is the only way to sign in to the account; set a password or link another provider first."
        ),
    ])
    func eachRefusalHasItsAnswer(error: IdentityError, status: Int, code: String, detail: String) {
        #expect(error.problem.statusCode == status)
        #expect(error.problem.code == code)
        #expect(error.problem.detail == detail)
    }
}
