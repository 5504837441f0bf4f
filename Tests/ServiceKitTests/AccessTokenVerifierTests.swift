import Crypto
import Foundation
import JWTKit
import PlatformKit
import Synchronization
import TestSupport
import Testing

/// The verifier checks each token once, then answers from its cache until the token expires.
@Suite struct AccessTokenVerifierTests {
    let clock = ManualClock()

    func signedToken(keys: JWTKeyCollection, lifetime: TimeInterval = 900) async throws -> String {
        let claims = AccessTokenClaims(
            userID: "u1", sessionID: "s1", roles: ["admin"], issuedAt: clock.now, lifetime: lifetime)
        return try await keys.sign(claims, kid: "k1")
    }

    func keys() async -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: Curve25519.Signing.PrivateKey()), kid: "k1")
        return keys
    }

    @Test func verifiesOnceThenAnswersFromTheCache() async throws {
        let keys = await keys()
        let calls = Mutex(0)
        let verifier = AccessTokenVerifier(clock: clock.wallClock) { token in
            calls.withLock { $0 += 1 }
            return try await keys.verify(token, as: AccessTokenClaims.self)
        }
        let token = try await signedToken(keys: keys)
        #expect(verifier.cachedUser(token: token) == nil)
        let user = try await verifier.verify(token: token)
        #expect(user.userID == "u1" && user.sessionID == "s1" && user.isAdmin)
        _ = try await verifier.verify(token: token)
        #expect(verifier.cachedUser(token: token) == user)
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func anExpiredTokenIsRefusedEvenFromTheCache() async throws {
        let keys = await keys()
        let verifier = AccessTokenVerifier.local(keys: keys, clock: clock.wallClock)
        let token = try await signedToken(keys: keys, lifetime: 60)
        _ = try await verifier.verify(token: token)
        clock.advance(by: 61)
        #expect(verifier.cachedUser(token: token) == nil)
        await #expect(throws: Problem.unauthorized("token_expired", "The access token has expired; refresh it.")) {
            try await verifier.verify(token: token)
        }
    }

    @Test func keysThatCannotBeFetchedAnswer503NotInvalidToken() async throws {
        let verifier = AccessTokenVerifier(clock: clock.wallClock) { _ in throw KeySetError.unavailable }
        let token = try await signedToken(keys: await keys())
        await #expect(throws: Problem.serviceUnavailable("identity")) { try await verifier.verify(token: token) }
    }

    @Test func tokensFromOtherKeysAreRefused() async throws {
        let verifier = AccessTokenVerifier.local(keys: await keys(), clock: clock.wallClock)
        let foreign = try await signedToken(keys: await keys())
        await #expect(throws: Problem.self) { try await verifier.verify(token: foreign) }
        await #expect(throws: Problem.self) { try await verifier.verify(authorization: nil) }
        await #expect(throws: Problem.self) { try await verifier.verify(authorization: "Basic abc") }
    }

    @Test func bearerTokensAreReadCaseInsensitively() {
        #expect(AccessTokenVerifier.bearerToken("Bearer abc") == "abc")
        #expect(AccessTokenVerifier.bearerToken("bearer  abc ") == "abc")
        #expect(AccessTokenVerifier.bearerToken("Bearer ") == nil)
        #expect(AccessTokenVerifier.bearerToken("Token abc") == nil)
        #expect(AccessTokenVerifier.bearerToken(nil) == nil)
    }
}
