import Foundation

// Typed answers of the identity service (Services/Identity/IdentityService/Controllers/IdentityDTOs.swift and
// the controllers' own answer types), as the stack tests read them. Fields the service always writes are
// required, so a renamed one fails the decode.

/// The signed-in user's own profile, private fields included (`MyProfile`).
public struct WireMyProfile: Decodable, Sendable {
    public var id: String
    public var username: String?
    public var email: String?
    public var emailVerified: Bool
    public var displayName: String
    public var bio: String
    public var homeCity: String
    public var avatarUrl: String?
    public var hasPassword: Bool
    public var needsUsername: Bool
    public var roles: [String]
    public var createdAt: Date
}

/// What anyone signed in may see of a user (`PublicProfile`). `email` is never sent: it is decoded only so
/// that a test can show it absent.
public struct WirePublicProfile: Decodable, Sendable {
    public var id: String
    public var username: String?
    public var displayName: String
    public var bio: String
    public var homeCity: String
    public var avatarUrl: String?
    public var email: String?
    /// In the directory, with the social service running: how this user stands to the viewer.
    public var relationship: WireRelationFlags?
}

/// The answer to every sign-in and refresh (`TokenPair`).
public struct WireTokenPair: Decodable, Sendable {
    public var accessToken: String
    public var tokenType: String
    /// Seconds until the access token expires.
    public var expiresIn: Int
    public var refreshToken: String
    public var sessionId: String
    public var user: WireMyProfile
}

/// A plain acknowledgement (`StatusMessage`).
public struct WireStatusMessage: Decodable, Sendable {
    public var status: String
    public var message: String
}

/// One of the user's active sessions (`SessionSummary`).
public struct WireSession: Decodable, Sendable {
    public var id: String
    public var userAgent: String?
    public var createdAt: Date
    public var lastUsedAt: Date
    public var current: Bool
}

/// A Google or Facebook account linked to the user (`LinkedIdentity`).
public struct WireLinkedIdentity: Decodable, Sendable {
    public var provider: String
    public var linkedAt: Date
}

/// The profiles a batch lookup found (`BatchReply`, internal).
public struct WireUserBatch: Decodable, Sendable {
    public var users: [WirePublicProfile]
}

/// A nonce for one Google/Facebook sign-in or link (`NonceReply`).
public struct WireNonce: Decodable, Sendable {
    public var nonce: String
    public var expiresAt: Date
}

/// The JSON Web Key Set that verifies access tokens.
public struct WireJWKS: Decodable, Sendable {
    /// One Ed25519 public key.
    public struct Key: Decodable, Sendable {
        public var kty: String
        public var crv: String
        public var use: String
        public var alg: String
        public var kid: String
        public var x: String
        /// The private part: never published, decoded only so that a test can show it absent.
        public var d: String?
    }
    public var keys: [Key]
}

/// The claims of an access token's payload that tests read.
public struct WireAccessClaims: Decodable, Sendable {
    public var sub: String
    public var sid: String
    public var roles: [String]
}

/// The tokens an answer carries, if any: for answers that must not sign anyone in (a refusal, a reset).
public struct WireAnyTokens: Decodable, Sendable {
    public var accessToken: String?
    public var refreshToken: String?
}
