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

    /// Creates claims for a user's session, valid from `issuedAt` for `lifetime`.
    public init(userID: String, sessionID: String, roles: [String], issuedAt: Date, lifetime: TimeInterval) {
        self.sub = SubjectClaim(value: userID)
        self.sid = sessionID
        self.roles = roles
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

    /// Creates the identity from its parts.
    public init(userID: String, sessionID: String, roles: [String], expiresAt: Date) {
        self.userID = userID
        self.sessionID = sessionID
        self.roles = roles
        self.expiresAt = expiresAt
    }

    /// Whether the user holds the admin role.
    public var isAdmin: Bool { roles.contains("admin") }
}
