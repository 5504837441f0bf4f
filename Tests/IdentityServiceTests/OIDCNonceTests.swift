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

/// Google/Facebook sign-in and linking take an ID token once, and only with a nonce identity issued for it (issue 41),
/// and a token for several audiences must name this application as its authorized party (OpenID Connect Core 3.1.3.7).
@Suite struct OIDCNonceTests {
    let clock = ManualClock()

    /// Runs `body` against identity trusting a fresh fake issuer for `google` (with `otherClient` as a second client id
    /// of ours there), and alice signed in with a password.
    func withIdentity(
        noncesPerMinute: Int = 30,
        _ body: @Sendable (any TestClientProtocol, FakeOIDCIssuer, HTTPFields) async throws -> Void
    ) async throws {
        let issuer = try await FakeOIDCIssuer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("identity-oidc-\(UUID())").path
        var limits = IdentityRateLimits()
        limits.noncesPerAddress = noncesPerMinute
        let app = try await buildIdentityApplication(
            IdentityConfiguration(
                settings: ServiceSettings(
                    service: .identity, database: .inMemory, internalToken: "t", clock: clock.wallClock),
                signingKey: Curve25519.Signing.PrivateKey(), bcryptCost: 4,
                oidcProviders: [
                    OIDCProvider(
                        name: "google", issuers: [issuer.issuer], jwksURL: issuer.jwksURL,
                        audiences: [issuer.audience, Self.otherClient])
                ], mailFolder: folder, limits: limits))
        struct Registered: Decodable { var accessToken: String }
        do {
            try await app.test(.router) { client in
                let registered = try await client.execute(
                    uri: IdentityPaths.register, method: .post,
                    body: ByteBuffer(
                        string: #"{"email":"alice@example.com","username":"alice","password":"plum tree sky 42"}"#))
                let alice = try JSONDecoder().decode(Registered.self, from: Data(registered.body.readableBytesView))
                try await body(client, issuer, [.authorization: "Bearer \(alice.accessToken)"])
            }
        } catch {
            await issuer.stop()
            throw error
        }
        await issuer.stop()
    }

    static let otherClient = "platform-android-client"

    func nonce(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: IdentityPaths.oidcNonce, method: .post)
        #expect(response.status == .created)
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        return try #require(object?["nonce"] as? String)
    }

    /// Sends an ID token to sign in (`headers` empty) or to link (alice's headers); the status and problem code.
    func present(
        _ client: some TestClientProtocol, token: String, nonce: String?, headers: HTTPFields = [:]
    ) async throws -> (status: Int, code: String?, detail: String?) {
        var body: [String: String] = ["provider": "google", "idToken": token]
        body["nonce"] = nonce
        let path = headers.isEmpty ? IdentityPaths.oidc : IdentityPaths.identities
        let response = try await client.execute(
            uri: path, method: .post, headers: headers,
            body: ByteBuffer(data: try JSONEncoder().encode(body)))
        let problem = try? JSONDecoder().decode(Problem.self, from: Data(response.body.readableBytesView))
        return (response.status.code, problem?.code, problem?.detail)
    }

    func token(_ issuer: FakeOIDCIssuer, nonce: String?, audiences: [String]? = nil, azp: String? = nil) async throws
        -> String
    {
        try await issuer.idToken(
            subject: "g-ann", email: "ann@gmail.com", nonce: nonce, audiences: audiences, authorizedParty: azp,
            now: clock.now)
    }

    @Test(arguments: [false, true])
    func withTheNonceItWasIssuedFor(linking: Bool) async throws {
        try await withIdentity { client, issuer, alice in
            let headers = linking ? alice : [:]
            // without a nonce: 400 naming the field
            let n0 = try await nonce(client)
            let missing = try await present(
                client, token: try await token(issuer, nonce: n0), nonce: nil, headers: headers)
            #expect(missing.status == 400 && missing.code == "invalid_body" && missing.detail == "nonce: is required.")
            // an invented one, carried by the token as the client wished: not one the server issued
            let invented = try await present(
                client, token: try await token(issuer, nonce: "made-up"), nonce: "made-up", headers: headers)
            #expect(invented.status == 401 && invented.code == "invalid_nonce")
            // an issued one past its ten minutes
            let old = try await nonce(client)
            clock.advance(by: OIDCNonce.lifetime + 1)
            let expired = try await present(
                client, token: try await token(issuer, nonce: old), nonce: old, headers: headers)
            #expect(expired.status == 401 && expired.code == "invalid_nonce")
            // an issued one the token does not carry
            let n1 = try await nonce(client)
            let n2 = try await nonce(client)
            let differs = try await present(
                client, token: try await token(issuer, nonce: n2), nonce: n1, headers: headers)
            #expect(differs.status == 401 && differs.code == "invalid_id_token")
            // the right one: accepted once, and the same ID token replayed is refused
            let fresh = try await nonce(client)
            let idToken = try await token(issuer, nonce: fresh)
            let first = try await present(client, token: idToken, nonce: fresh, headers: headers)
            let replay = try await present(client, token: idToken, nonce: fresh, headers: headers)
            #expect(first.status == (linking ? 201 : 200))
            #expect(replay.status == 401 && replay.code == "invalid_nonce")
            // the nonce the mismatched token did not use is still good once
            let n1Token = try await token(issuer, nonce: n1)
            #expect(try await present(client, token: n1Token, nonce: n1, headers: headers).status / 100 == 2)
        }
    }

    @Test(arguments: [false, true])
    func aTokenForSeveralAudiencesMustNameUsAsItsAuthorizedParty(linking: Bool) async throws {
        try await withIdentity { client, issuer, alice in
            let headers = linking ? alice : [:]
            let audiences = [issuer.audience, "someone-elses-client"]
            for azp in [nil, "someone-elses-client"] {
                let n = try await nonce(client)
                let refused = try await present(
                    client, token: try await token(issuer, nonce: n, audiences: audiences, azp: azp), nonce: n,
                    headers: headers)
                #expect(refused.status == 401 && refused.code == "invalid_id_token", "azp \(azp ?? "missing")")
            }
            let n = try await nonce(client)
            let accepted = try await present(
                client, token: try await token(issuer, nonce: n, audiences: audiences, azp: Self.otherClient),
                nonce: n, headers: headers)
            #expect(accepted.status / 100 == 2, "azp is another of our client ids at the provider")
        }
    }

    @Test func nonceRequestsAreRateLimitedPerAddress() async throws {
        try await withIdentity(noncesPerMinute: 2) { client, _, _ in
            _ = try await nonce(client)
            _ = try await nonce(client)
            let third = try await client.execute(uri: IdentityPaths.oidcNonce, method: .post)
            #expect(third.status == .tooManyRequests)
            clock.advance(by: 60)
            #expect(try await client.execute(uri: IdentityPaths.oidcNonce, method: .post).status == .created)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func issuingANoncePrunesTheExpiredOnes(kind: StoreKind) async throws {
        try await withIdentityStore(kind) { database in
            // given
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let stale = OIDCNonce.issue(now: now)
            try await database.storeNonce(stale, now: now)
            // when another is issued after the first expired
            let later = now.addingTimeInterval(OIDCNonce.lifetime)
            try await database.storeNonce(OIDCNonce.issue(now: later), now: later)
            // then only the live one is left
            #expect(try await database.pruneNonces(now: later.addingTimeInterval(OIDCNonce.lifetime)) == 1)
            #expect(try await !database.consumeNonce(hash: stale.hash, now: now), "deleted when the second was issued")
        }
    }
}
