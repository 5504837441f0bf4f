/// The services behind the gateway, with their default local ports.
public enum ServiceName: String, CaseIterable, Sendable {
    case identity, social, messaging, geo, habits, household, notifications

    /// The port the service listens on in the local stack and docker-compose.
    public var defaultPort: Int {
        switch self {
        case .identity: 8081
        case .social: 8082
        case .messaging: 8083
        case .geo: 8084
        case .habits: 8085
        case .household: 8086
        case .notifications: 8087
        }
    }
}

/// Header names the platform's components agree on.
public enum PlatformHeaders {
    /// The request id the gateway assigns and every service logs and echoes.
    public static let requestID = "X-Request-Id"
    /// The service credential on `/internal/...` calls.
    public static let internalToken = "X-Internal-Token"
    /// The client address as the gateway saw it.
    public static let forwardedFor = "X-Forwarded-For"
    /// W3C Trace Context: the trace and the calling span.
    public static let traceParent = "traceparent"
    /// W3C Trace Context: vendor-specific trace state, carried along with `traceparent`.
    public static let traceState = "tracestate"
}

/// The identity service's public paths.
public enum IdentityPaths {
    public static let register = "/v1/auth/register"
    public static let login = "/v1/auth/login"
    public static let refresh = "/v1/auth/refresh"
    public static let logout = "/v1/auth/logout"
    public static let logoutAll = "/v1/auth/logout-all"
    public static let sessions = "/v1/auth/sessions"
    public static let oidc = "/v1/auth/oidc"
    /// Public: a single-use nonce (valid 10 minutes) for the next Google/Facebook sign-in or link.
    public static let oidcNonce = "/v1/auth/oidc/nonce"
    public static let jwks = "/v1/auth/jwks"
    public static let changePassword = "/v1/auth/password/change"
    public static let forgotPassword = "/v1/auth/password/forgot"
    public static let resetPassword = "/v1/auth/password/reset"
    /// The page the reset link opens (HTML form, `GET ?token=` and its `POST`).
    public static let resetPasswordPage = "/reset-password"
    /// The page the verification link opens (HTML, `GET ?token=` and its confirming `POST`).
    public static let verifyEmailPage = "/verify-email"
    /// Public: `{token}` from the verification mail marks the e-mail address verified.
    public static let verifyEmail = "/v1/auth/email/verify"
    /// Signed in: sends the verification mail again (rate limited).
    public static let resendVerification = "/v1/auth/email/resend"
    /// Signed in: the Google/Facebook identities linked to the account (`GET`, `POST`, `DELETE /{provider}`).
    public static let identities = "/v1/users/me/identities"
    public static let users = "/v1/users"
    public static let me = "/v1/users/me"
    /// `POST {email}`: add or change my address; it takes effect when the link mailed to it is used.
    public static let myEmail = "/v1/users/me/email"
    /// Internal: profiles of many users at once, for other services.
    public static let internalUsersBatch = "/internal/users/batch"
    /// Internal: one user by username, for other services.
    public static let internalUserByUsername = "/internal/users/by-username"
    /// Internal: ended sessions, `?after=<sequence>&wait=<seconds>` long-polls for the next ones.
    public static let internalSessionRevocations = "/internal/sessions/revocations"
}

/// The social graph's paths, public and internal.
public enum SocialPaths {
    public static let prefix = "/v1/social"
    public static let friends = prefix + "/friends"
    public static let friendRequests = prefix + "/friend-requests"
    public static let follows = prefix + "/follows"
    public static let followRequests = prefix + "/follow-requests"
    public static let followers = prefix + "/followers"
    public static let following = prefix + "/following"
    public static let blocks = prefix + "/blocks"
    public static let suggestions = prefix + "/suggestions"
    public static let users = prefix + "/users"
    /// Internal: `?a=&b=` -> how a stands to b.
    public static let internalRelationship = "/internal/social/relationship"
    /// Internal: `{viewer, others}` -> how viewer stands to each.
    public static let internalRelationships = "/internal/social/relationships"
    /// A page of users as the viewer sees them (``RelationFlags`` each) and which of them blocked the viewer.
    public static let internalRelations = "/internal/social/relations"
    /// Internal: `/{id}/friend-ids`, `/{id}/following-ids`, `/{id}/blocked-ids` (either way).
    public static let internalUsers = "/internal/social/users"
    /// Internal, long-polled: `?after=&wait=` -> the users whose friends or blocks changed after a sequence.
    public static let internalRelationshipChanges = "/internal/social/relationship-changes"
}

/// The household service's public paths.
public enum HouseholdPaths {
    public static let households = "/v1/households"
}

/// The geo service's public paths: pins, the map, places and who visited them, and the anonymous packs.
public enum GeoPaths {
    public static let prefix = "/v1/geo"
    /// My pins (`GET`, `POST`), one pin (`/{id}`), its photos (`/{id}/photos`) and my colour for it (`/{id}/color`).
    public static let pins = prefix + "/pins"
    /// Pins in a bounding box as GeoJSON, clustered at low zoom.
    public static let map = prefix + "/map"
    /// Place search in the gazetteer.
    public static let places = prefix + "/places"
    /// The countries and cities I have pinned (`/summary`), with GeoJSON of the countries.
    public static let visited = prefix + "/visited"
    /// Who pinned a place or the area around a point.
    public static let visitors = prefix + "/visitors"
    /// My map colours per category.
    public static let colors = prefix + "/colors"
    /// Whether strangers see my name in who-visited lists.
    public static let privacy = prefix + "/privacy"
    /// Anonymous local packs (`POST`), my packs (`/mine`), one pack (`/{id}`), its membership and posts.
    public static let packs = prefix + "/packs"
    /// One anonymous post (`/{id}`), its vote (`/{id}/vote`) and comments (`/{id}/comments`).
    public static let posts = prefix + "/posts"
    /// One comment (`/{id}`), for deleting my own.
    public static let comments = prefix + "/comments"
    /// New or top posts of my packs.
    public static let feed = prefix + "/feed"
    /// Packs (`/packs`) and public posts (`/posts`) near me.
    public static let discover = prefix + "/discover"
    /// My posts, comments, earned votes and packs.
    public static let den = prefix + "/den"
}

/// The notifications service's paths, public and internal.
public enum NotificationsPaths {
    /// My inbox, newest first.
    public static let notifications = "/v1/notifications"
    public static let unreadCount = notifications + "/unread-count"
    public static let readAll = notifications + "/read-all"
    /// My live stream (Server-Sent Events).
    public static let stream = notifications + "/stream"
    public static let devices = notifications + "/devices"
    public static let preferences = notifications + "/preferences"
    /// Internal: other services post notices here.
    public static let internalNotifications = "/internal/notifications"
    /// Internal: other services post realtime events here.
    public static let internalEvents = "/internal/events"
    /// Internal: the head of a service's outbox, several notices and events in one post.
    public static let internalDeliveries = "/internal/deliveries"
    /// Internal: `{userId, sessionIds}` identity ended; their device tokens are forgotten.
    public static let internalEndedSessions = "/internal/sessions/ended"
}

/// The messaging service's public paths: conversations, their topics and messages, search.
public enum MessagingPaths {
    public static let prefix = "/v1/messaging"
    /// My conversations; `/{id}` one of them, with `/messages`, `/topics`, `/members`, `/read`, `/mute`.
    public static let conversations = prefix + "/conversations"
    /// Opens (or finds) the direct conversation with one user.
    public static let direct = conversations + "/direct"
    /// Creates a group conversation.
    public static let groups = conversations + "/groups"
    /// Unread counts per conversation and topic.
    public static let unread = prefix + "/unread"
    /// Keyword search across my conversations.
    public static let search = prefix + "/search"
    /// `/{id}/groups`: the groups a friend and I are both in.
    public static let users = prefix + "/users"
    /// Internal: `/{id}/members?viewer=`, the member ids of a conversation the viewer is in.
    public static let internalConversations = "/internal/messaging/conversations"
}

/// The habit tracker's public paths.
public enum HabitsPaths {
    public static let habits = "/v1/habits"
    public static let preferences = habits + "/preferences"
    public static let today = habits + "/today"
    public static let following = habits + "/following"
    public static let events = habits + "/events"
    public static let history = habits + "/history"
    /// The history as GeoJSON for the map.
    public static let historyMap = habits + "/history/map"
}

/// Which service owns which public path prefix, and which paths need no access token.
/// The gateway routes with this table; it is the one place a new service's routes are added.
public enum RouteTable {
    /// One routing rule: requests whose path starts with `prefix` go to `service`.
    public struct Entry: Sendable {
        /// The path prefix, matched on whole segments.
        public var prefix: String
        /// The service that owns it.
        public var service: ServiceName

        /// Creates a rule.
        public init(_ prefix: String, _ service: ServiceName) {
            self.prefix = prefix
            self.service = service
        }
    }

    /// The platform's routing rules.
    public static let entries: [Entry] = [
        Entry("/v1/auth", .identity),
        Entry("/v1/users", .identity),
        Entry(IdentityPaths.resetPasswordPage, .identity),
        Entry(IdentityPaths.verifyEmailPage, .identity),
        Entry(SocialPaths.prefix, .social),
        Entry(HouseholdPaths.households, .household),
        Entry(NotificationsPaths.notifications, .notifications),
        Entry(MessagingPaths.prefix, .messaging),
        Entry(HabitsPaths.habits, .habits),
        Entry(GeoPaths.prefix, .geo),
    ]

    /// Paths reachable without an access token (exact match).
    public static let publicPaths: Set<String> = [
        IdentityPaths.register, IdentityPaths.login, IdentityPaths.refresh, IdentityPaths.oidc,
        IdentityPaths.oidcNonce, IdentityPaths.jwks,
        IdentityPaths.forgotPassword, IdentityPaths.resetPassword, IdentityPaths.verifyEmail,
        IdentityPaths.resetPasswordPage, IdentityPaths.verifyEmailPage,
    ]
}
