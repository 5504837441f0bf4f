import Crypto
import Foundation
import JWTKit
import PlatformKit
import TestSupport
import Testing

/// Access tokens as the gateway and the services check them.
@Suite struct TokenTests {
    /// An access token for `userID` signed by a key that is not the identity service's, under its `kid`.
    func forgedToken(_ stack: TestStack, userID: String) async throws -> String {
        let jwks = try await stack.gateway.get(IdentityPaths.jwks)
        let kid = try #require(try jwks.decode(WireJWKS.self).keys.first?.kid)
        let keys = JWTKeyCollection()
        await keys.add(
            eddsa: EdDSA.PrivateKey(backing: Curve25519.Signing.PrivateKey()), kid: JWKIdentifier(string: kid))
        let claims = AccessTokenClaims(
            userID: userID, sessionID: "s", roles: ["admin"], issuedAt: stack.clock.now, lifetime: 900)
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func forgedUnsignedAndGarbageTokensGetA401() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let forged = try await forgedToken(stack, userID: alice.id)
            let payload = alice.accessToken.split(separator: ".")[1]
            let unsigned = base64URL(#"{"alg":"none","typ":"JWT"}"#) + "." + payload + "."
            let algSwap = base64URL(#"{"alg":"HS256","typ":"JWT"}"#) + "." + payload + ".c2lnbmF0dXJl"
            for token in [forged, unsigned, algSwap, "garbage", alice.accessToken + "x"] {
                let response = try await stack.gateway.get(IdentityPaths.me, token: token)
                #expect(response.status == 401)
                #expect(response.problem?.code == "invalid_token")
            }
            let missing = try await stack.gateway.get(IdentityPaths.me)
            #expect(missing.problem?.code == "missing_token")
            let basic = try await stack.gateway.get(IdentityPaths.me, headers: [("Authorization", "Basic YTpi")])
            #expect(basic.problem?.code == "missing_token")
        }
    }

    @Test func theServiceChecksTokensItselfToo() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            let forged = try await forgedToken(stack, userID: alice.id)
            let direct = try await stack.direct(.identity).get(IdentityPaths.me, token: forged)
            #expect(direct.status == 401)
            #expect(try await stack.direct(.identity).get(IdentityPaths.me).status == 401)
            #expect(try await stack.direct(.identity).get(IdentityPaths.me, token: alice.accessToken).status == 200)
        }
    }

    @Test func accessTokensExpireAfterFifteenMinutes() async throws {
        try await withTestStack { stack in
            let alice = try await stack.register("alice")
            #expect(try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken).status == 200)
            stack.clock.advance(by: 15 * 60 + 1)
            let expired = try await stack.gateway.get(IdentityPaths.me, token: alice.accessToken)
            #expect(expired.status == 401)
            #expect(expired.problem?.code == "token_expired")
            let refreshed = try await stack.gateway.post(
                IdentityPaths.refresh, json: ["refreshToken": alice.refreshToken])
            let access = try refreshed.decode(WireTokenPair.self).accessToken
            #expect(try await stack.gateway.get(IdentityPaths.me, token: access).status == 200)
        }
    }

    @Test func theJWKSPublishesTheSigningKey() async throws {
        try await withTestStack { stack in
            let response = try await stack.gateway.get(IdentityPaths.jwks)
            #expect(response.status == 200)
            let key = try #require(try response.decode(WireJWKS.self).keys.first)
            #expect(key.kty == "OKP")
            #expect(key.crv == "Ed25519")
            #expect(key.alg == "EdDSA")
            #expect(key.d == nil, "the private part is never published")
        }
    }
}
