import Foundation
import JWTKit

/// The claims of an access token issued by the identity service.
public struct AccessTokenClaims: JWTPayload, Equatable {
    /// Issuer every platform access token carries.
    public static let issuer = "platform-identity"
    /// Audience every platform access token carries.
    public static let audience = "platform-api"

    /// The user id.
    public var sub: SubjectClaim
    /// The session (refresh-token family) this token belongs to.
    public var sid: String
    /// Roles such as `admin`.
    public var roles: [String]
    public var iss: IssuerClaim
    public var aud: AudienceClaim
    public var iat: IssuedAtClaim
    public var exp: ExpirationClaim
    /// True while the account has not chosen a username (absent otherwise): nobody could tell who it is, so
    /// services refuse its writes.
    public var needsUsername: Bool?

    enum CodingKeys: String, CodingKey {
        case sub, sid, roles, iss, aud, iat, exp
        case needsUsername = "needs_username"
    }

    /// Creates claims for a user's session, valid from `issuedAt` for `lifetime`.
    public init(
        userID: String, sessionID: String, roles: [String], issuedAt: Date, lifetime: TimeInterval,
        needsUsername: Bool = false
    ) {
        self.sub = SubjectClaim(value: userID)
        self.sid = sessionID
        self.roles = roles
        self.needsUsername = needsUsername ? true : nil
        self.iss = IssuerClaim(value: Self.issuer)
        self.aud = AudienceClaim(value: Self.audience)
        self.iat = IssuedAtClaim(value: issuedAt)
        self.exp = ExpirationClaim(value: issuedAt.addingTimeInterval(lifetime))
    }

    /// Signature checks happen in jwt-kit; expiry is checked by ``AccessTokenVerifier`` against its clock.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        guard iss.value == Self.issuer else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "issuer")
        }
        try aud.verifyIntendedAudience(includes: Self.audience)
    }
}

/// Who is calling: the verified facts of an access token.
public struct AuthenticatedUser: Sendable, Equatable {
    /// The user id (`sub`).
    public var userID: String
    /// The session id (`sid`).
    public var sessionID: String
    /// Roles granted to the user.
    public var roles: [String]
    /// When the token stops being valid.
    public var expiresAt: Date
    /// Whether the account has yet to choose a username (its writes are refused until it does).
    public var needsUsername: Bool

    /// Creates the identity from its parts.
    public init(userID: String, sessionID: String, roles: [String], expiresAt: Date, needsUsername: Bool = false) {
        self.userID = userID
        self.sessionID = sessionID
        self.roles = roles
        self.expiresAt = expiresAt
        self.needsUsername = needsUsername
    }

    /// Whether the user holds the admin role.
    public var isAdmin: Bool { roles.contains("admin") }
}
