import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Profiles: my own (edit, username, picture), other users' (view, search), and pictures served with ETag.
struct UsersController {
    let store: any IdentityStore
    /// Signs the fresh access token a newly chosen username comes with.
    let signer: TokenSigner
    let clock: WallClock
    /// How the directory's users stand to the viewer; `nil`: no relationships, nobody left out.
    let social: (any SocialRelationsLookup)?
    static let maximumAvatarBytes = 2 << 20

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(IdentityPaths.me), use: me)
        router.patch(RouterPath(IdentityPaths.me), use: update)
        router.put(RouterPath(IdentityPaths.me + "/avatar"), use: uploadAvatar)
        router.delete(RouterPath(IdentityPaths.me + "/avatar"), use: deleteAvatar)
        router.get(RouterPath(IdentityPaths.users), use: search)
        router.get(RouterPath(IdentityPaths.users + "/:id"), use: profile)
        router.get(RouterPath(IdentityPaths.users + "/:id/avatar"), use: avatar)
    }

    @Sendable func me(_ request: Request, context: AuthenticatedContext) async throws -> MyProfile {
        guard let user = try await store.user(id: context.user.userID) else {
            throw IdentityError.notFound("The user")
        }
        return MyProfile(user)
    }

    struct UpdateRequest: Decodable {
        var username: String?
        var displayName: String?
        var bio: String?
        var homeCity: String?
    }

    /// My profile after a change, and, when the change gave the account its first username, a fresh access token
    /// for this session without `needs_username`.
    ///
    /// Services read the rule "no username, no social writes" from the access token, which saves every write a
    /// call to identity; the token the app holds still carries the claim, so the answer hands over one that does
    /// not, and the next request (a friend request, a message) goes through. An app that keeps the old token is
    /// answered 403 `username_required` until it refreshes, as before.
    struct UpdatedProfile: ResponseEncodable, Sendable {
        var profile: MyProfile
        var accessToken: String?
        var tokenType: String?
        var expiresIn: Int?

        func encode(to encoder: any Encoder) throws {
            try profile.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(accessToken, forKey: .accessToken)
            try container.encodeIfPresent(tokenType, forKey: .tokenType)
            try container.encodeIfPresent(expiresIn, forKey: .expiresIn)
        }

        enum CodingKeys: String, CodingKey { case accessToken, tokenType, expiresIn }
    }

    /// Changes the given fields; absent fields stay as they are.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> UpdatedProfile {
        let input = try await request.decode(as: UpdateRequest.self, context: context)
        let username = try input.username.map { try Validate.username($0) }
        let displayName = try input.displayName.map { try Validate.text($0, field: "displayName", min: 0, max: 50) }
        let bio = try input.bio.map { try Validate.text($0, field: "bio", min: 0, max: 300) }
        let homeCity = try input.homeCity.map { try Validate.text($0, field: "homeCity", min: 0, max: 100) }
        let user = try await store.updateUser(id: context.user.userID, now: clock.now) { user in
            if let username { user.username = username }
            if let displayName { user.displayName = displayName }
            if let bio { user.bio = bio }
            if let homeCity { user.homeCity = homeCity }
        }
        var answer = UpdatedProfile(profile: MyProfile(user))
        if context.user.needsUsername, user.username != nil {
            answer.accessToken = try await signer.accessToken(
                userID: user.id, sessionID: context.user.sessionID, roles: user.roleList, needsUsername: false,
                now: clock.now)
            answer.tokenType = "Bearer"
            answer.expiresIn = Int(TokenSigner.accessTokenLifetime)
        }
        return answer
    }

    /// Replaces the profile picture with the raw body: a JPEG, PNG or WebP of at most 2 MiB.
    @Sendable func uploadAvatar(_ request: Request, context: AuthenticatedContext) async throws -> MyProfile {
        let body = try await request.body.collect(upTo: Self.maximumAvatarBytes)
        let image = try await ImageKind.clean(body.readableBytesView, maximumBytes: Self.maximumAvatarBytes)
        try await store.setAvatar(
            AvatarRecord(
                userId: context.user.userID, mediaType: image.mediaType, etag: EntityTag(of: image.bytes).description,
                bytes: image.bytes),
            now: clock.now)
        return try await me(request, context: context)
    }

    @Sendable func deleteAvatar(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        guard try await store.deleteAvatar(userID: context.user.userID, now: clock.now) else {
            throw IdentityError.notFound("The profile picture")
        }
        return .noContent
    }

    @Sendable func profile(_ request: Request, context: AuthenticatedContext) async throws -> PublicProfile {
        let id = try context.parameters.require("id")
        guard let user = try await store.user(id: id) else { throw IdentityError.notFound("The user") }
        return PublicProfile(user)
    }

    /// The picture's bytes; `If-None-Match` with the current ETag answers 304 without them.
    @Sendable func avatar(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try context.parameters.require("id")
        guard let avatar = try await store.avatar(userID: id) else {
            throw IdentityError.notFound("The profile picture")
        }
        return StoredBytes(bytes: avatar.bytes, mediaType: avatar.mediaType, tag: EntityTag(stored: avatar.etag))
            .response(to: request)
    }

    /// The directory: other users with a username whose username or display name contains `query`, exact
    /// matches first, then prefixes, then the rest (each by username), paginated. Each entry says how that user
    /// stands to me (the social graph's ``RelationFlags``, one call per page); those who blocked me are left out
    /// (a page may then hold fewer than `limit`; its cursor still leads on).
    /// Where a page of people to browse ends: the last username on it.
    struct BrowseCursor: Codable {
        var after: String
    }

    /// The directory: with `query`, a search; without, everyone to browse, a page at a time by username.
    @Sendable func search(_ request: Request, context: AuthenticatedContext) async throws -> Page<PublicProfile> {
        let query = request.uri.queryParameters
        guard let given = query["query"] else { return try await browse(request, context: context) }
        let page = try request.pageRequest()
        let text = try Validate.text(String(given), field: "query", min: 1, max: 50).lowercased()
        let after = try page.decodeCursor(as: DirectoryCursor.self)
        if let after, !(0...2).contains(after.rank) { throw PageCursor.invalid }
        let rows = try await store.directory(
            matching: text, viewer: context.user.userID, after: after, limit: page.limit + 1)
        let ranks = Dictionary(rows.map { ($0.user.id, $0.rank) }, uniquingKeysWith: { first, _ in first })
        var found = Page(fetched: rows.map { PublicProfile($0.user) }, limit: page.limit) {
            DirectoryCursor(rank: ranks[$0.id] ?? 2, username: $0.username ?? "")
        }
        if let social {
            let (flags, blockedBy) = try await social.relations(of: context.user.userID, among: found.items.map(\.id))
            found.items = found.items.filter { !blockedBy.contains($0.id) }.map { profile in
                var entry = profile
                entry.relationship = flags[profile.id] ?? RelationFlags()
                return entry
            }
        }
        return found
    }

    /// Everyone with a username but me, by username, each with how they stand to me; nobody who blocked me or whom
    /// I blocked. A page may hold fewer than `limit` when some were left out; `nextCursor` still goes on.
    func browse(_ request: Request, context: AuthenticatedContext) async throws -> Page<PublicProfile> {
        let page = try request.pageRequest()
        let after = try page.decodeCursor(as: BrowseCursor.self)
        guard after.map({ $0.after.utf8.count <= 64 }) ?? true else { throw PageCursor.invalid }
        let users = try await store.directory(
            viewer: context.user.userID, after: after?.after, limit: page.limit + 1)
        var found = Page(fetched: users.map { PublicProfile($0) }, limit: page.limit) {
            BrowseCursor(after: $0.username ?? "")
        }
        if let social {
            let (flags, blockedBy) = try await social.relations(of: context.user.userID, among: found.items.map(\.id))
            found.items = found.items.filter { !blockedBy.contains($0.id) && flags[$0.id]?.blocked != true }
                .map { profile in
                    var entry = profile
                    entry.relationship = flags[profile.id] ?? RelationFlags()
                    return entry
                }
        }
        return found
    }
}
