import Crypto
import Foundation
import JWTKit
import PlatformKit
import ServiceKit

/// Signs access tokens with the service's Ed25519 key and publishes the public half as a JWKS.
struct TokenSigner: Sendable {
    static let accessTokenLifetime: TimeInterval = 15 * 60

    let keyID: String
    let keys: JWTKeyCollection
    /// The JWKS document, built once.
    let jwksDocument: Data

    init(privateKey: Curve25519.Signing.PrivateKey, keyID: String? = nil) async {
        let publicKey = privateKey.publicKey.rawRepresentation
        let keyID = keyID ?? SHA256.hash(data: publicKey).prefix(8).map { String(format: "%02x", $0) }.joined()
        self.keyID = keyID
        self.keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: privateKey), kid: JWKIdentifier(string: keyID))
        let jwk: [String: String] = [
            "kty": "OKP", "crv": "Ed25519", "use": "sig", "alg": "EdDSA", "kid": keyID, "x": publicKey.base64URLEncoded,
        ]
        self.jwksDocument =
            (try? JSONSerialization.data(withJSONObject: ["keys": [jwk]], options: [.sortedKeys])) ?? Data()
    }

    func accessToken(userID: String, sessionID: String, roles: [String], needsUsername: Bool = false, now: Date)
        async throws -> String
    {
        let claims = AccessTokenClaims(
            userID: userID, sessionID: sessionID, roles: roles, issuedAt: now, lifetime: Self.accessTokenLifetime,
            needsUsername: needsUsername)
        return try await keys.sign(claims, kid: JWKIdentifier(string: keyID))
    }
}

/// Opaque secrets (refresh and reset tokens): random, shown once, stored only as their SHA-256.
enum OpaqueToken {
    /// 32 random bytes, base64url: ServiceKit's ``randomToken(byteCount:)``.
    static func generate() -> String { randomToken() }

    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
