import Foundation
import Hummingbird
import ServiceKit

/// The answer to every sign-in: a short-lived access token, a rotating refresh token, and who signed in.
struct TokenPair: ResponseEncodable, Sendable {
    var accessToken: String
    var tokenType: String
    /// Seconds until the access token expires.
    var expiresIn: Int
    var refreshToken: String
    var sessionId: String
    var user: MyProfile

    init(_ credentials: SessionIssuer.Credentials, user: UserRecord) {
        accessToken = credentials.accessToken
        tokenType = "Bearer"
        expiresIn = credentials.expiresIn
        refreshToken = credentials.refreshToken
        sessionId = credentials.sessionID
        self.user = MyProfile(user)
    }
}

/// The signed-in user's own profile, with the private fields.
struct MyProfile: ResponseEncodable, Sendable {
    var id: String
    var username: String?
    var email: String?
    var emailVerified: Bool
    var displayName: String
    var bio: String
    var homeCity: String
    var avatarUrl: String?
    var hasPassword: Bool
    /// Accounts created through Google or Facebook choose a username right after signing up.
    var needsUsername: Bool
    var roles: [String]
    var createdAt: Date

    init(_ user: UserRecord) {
        id = user.id
        username = user.username
        email = user.email
        emailVerified = user.emailVerified
        displayName = user.displayName
        bio = user.bio
        homeCity = user.homeCity
        avatarUrl = user.avatarEtag.map { _ in "/v1/users/\(user.id)/avatar" }
        hasPassword = user.passwordHash != nil
        needsUsername = user.username == nil
        roles = user.roleList
        createdAt = user.createdAt
    }
}

/// What anyone signed in may see of a user.
struct PublicProfile: ResponseEncodable, Sendable, Decodable {
    var id: String
    var username: String?
    var displayName: String
    var bio: String
    var homeCity: String
    var avatarUrl: String?
    /// In the directory: how this user stands to the viewer.
    var relationship: RelationFlags?

    init(_ user: UserRecord) {
        id = user.id
        username = user.username
        displayName = user.displayName
        bio = user.bio
        homeCity = user.homeCity
        avatarUrl = user.avatarEtag.map { _ in "/v1/users/\(user.id)/avatar" }
    }
}

/// A plain acknowledgement.
struct StatusMessage: ResponseEncodable, Sendable {
    var status: String
    var message: String
}
