import Foundation

/// An OpenID Connect issuer whose ID tokens we accept ("Sign in with Google/Facebook").
public struct OIDCProvider: Codable, Sendable, Equatable {
    /// The name clients use, e.g. `google`.
    public var name: String
    /// Accepted `iss` values (Google uses two spellings).
    public var issuers: [String]
    /// Where the issuer publishes its signing keys.
    public var jwksURL: String
    /// Our client ids at this issuer: a token's `aud` must be one of them.
    public var audiences: [String]

    public init(name: String, issuers: [String], jwksURL: String, audiences: [String]) {
        self.name = name
        self.issuers = issuers
        self.jwksURL = jwksURL
        self.audiences = audiences
    }
}

/// Someone an issuer vouched for.
struct ExternalIdentity: Sendable {
    var issuer: String
    var subject: String
    var email: String?
    var emailVerified: Bool
    var name: String?

    /// Whether this identity may be linked to the account that has its e-mail address. Both sides must have proved
    /// the address: an unverified one at the issuer lets anyone who registers it there take over the account; an
    /// unverified one here may belong to someone who registered the owner's address first and whose password would
    /// keep working (issue 16, item 4).
    func mayLink(toAccountWithVerifiedEmail accountVerified: Bool) -> Bool {
        emailVerified && accountVerified
    }
}
