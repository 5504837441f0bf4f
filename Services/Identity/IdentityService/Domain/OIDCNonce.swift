import Foundation

/// The nonce an app asks identity for before it opens Google's or Facebook's sign-in, puts into that authorization
/// request, and sends back beside the ID token (issue 41): issued by the server, random, stored only as its SHA-256,
/// valid ten minutes and used once, so an ID token can be exchanged or linked only once and only by the app that
/// began that sign-in (OpenID Connect Core 3.1.2.1 and 15.5.2).
struct OIDCNonce: Sendable {
    static let lifetime: TimeInterval = 10 * 60
    /// Longer values are not ours (ours are 43 characters): refused before hashing.
    static let maximumLength = 128

    var value: String
    var expiresAt: Date

    var hash: String { OpaqueToken.hash(value) }

    /// A new nonce, issued at `now`.
    static func issue(now: Date) -> OIDCNonce {
        OIDCNonce(value: OpaqueToken.generate(), expiresAt: now.addingTimeInterval(lifetime))
    }

    /// The hash to look `nonce` up by, or nil when it cannot be one we issued.
    static func lookupHash(of nonce: String) -> String? {
        guard !nonce.isEmpty, nonce.utf8.count <= maximumLength else { return nil }
        return OpaqueToken.hash(nonce)
    }
}
