import Crypto
import Foundation
import PlatformKit

/// Derives each refresh token from the one it replaces (HMAC-SHA256 under a server key), so two requests
/// racing with the same token inside the grace window receive the same successor: one live chain, and
/// neither app is signed out (issue 16, item 5). The key is derived from the signing key, which never
/// leaves the service; without it the successor of a token cannot be guessed.
struct RefreshTokenChain: Sendable {
    private let key: SymmetricKey
    /// Successors computed per refresh: more rotations than this inside one grace window are not a race.
    static let depth = 8

    init(signingKey: Curve25519.Signing.PrivateKey) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: signingKey.rawRepresentation),
            info: Data("platform refresh token chain v1".utf8), outputByteCount: 32)
    }

    /// The token that replaces `token`.
    func successor(of token: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: key)).base64URLEncoded
    }

    /// The next ``depth`` tokens after `token`, nearest first.
    func successors(of token: String) -> [String] {
        var chain: [String] = []
        var current = token
        for _ in 0..<Self.depth {
            current = successor(of: current)
            chain.append(current)
        }
        return chain
    }
}
