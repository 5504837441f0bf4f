import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// One-way follows that need the other side's approval (the habit tracker), and blocks.
struct FollowsController {
    let store: any SocialStore
    let profiles: ProfileStore
    let notices: SocialNotices
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.post(RouterPath(SocialPaths.follows), use: follow)
        router.get(RouterPath(SocialPaths.followRequests), use: followRequests)
        router.post(RouterPath(SocialPaths.followRequests + "/:user/approve"), use: approve)
        router.post(RouterPath(SocialPaths.followRequests + "/:user/reject"), use: reject)
        router.get(RouterPath(SocialPaths.followers), use: followers)
        router.get(RouterPath(SocialPaths.following), use: following)
        router.delete(RouterPath(SocialPaths.following + "/:user"), use: unfollow)
        router.delete(RouterPath(SocialPaths.followers + "/:user"), use: removeFollower)
        router.get(RouterPath(SocialPaths.blocks), use: blocks)
        router.put(RouterPath(SocialPaths.blocks + "/:user"), use: block)
        router.delete(RouterPath(SocialPaths.blocks + "/:user"), use: unblock)
    }

    /// Asks to follow a user; they approve or reject.
    @Sendable func follow(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        RelationshipView
    > {
        let target = try await profiles.userID(
            of: try await request.decode(as: UserTarget.self, context: context).reference())
        // My name first: the notice is written with the request.
        let name = try await profiles.displayName(of: context.user.userID)
        let relationship = try await store.follow(
            context.user.userID, target, now: clock.now, notices: notices.followRequest(to: target, from: name))
        return EditedResponse(
            status: .created, response: RelationshipView(userId: target, relationship: relationship.flags))
    }

    @Sendable func followRequests(_ request: Request, context: AuthenticatedContext) async throws -> Page<UserSummary> {
        try await follows(request, context, .requests)
    }

    @Sendable func approve(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let follower = try context.parameters.require("user")
        let name = try await profiles.displayName(of: context.user.userID)
        try await store.answerFollow(
            of: follower, to: context.user.userID, approve: true,
            notices: notices.followAnswered(to: follower, by: name))
        return .noContent
    }

    @Sendable func reject(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.answerFollow(
            of: try context.parameters.require("user"), to: context.user.userID, approve: false, notices: nil)
        return .noContent
    }

    @Sendable func followers(_ request: Request, context: AuthenticatedContext) async throws -> Page<UserSummary> {
        try await follows(request, context, .followers)
    }

    @Sendable func following(_ request: Request, context: AuthenticatedContext) async throws -> Page<UserSummary> {
        try await follows(request, context, .following)
    }

    /// Stops following (or withdraws a pending request).
    @Sendable func unfollow(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.endFollow(
            of: context.user.userID, to: try context.parameters.require("user"), approvedOnly: false)
        return .noContent
    }

    @Sendable func removeFollower(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status
    {
        try await store.endFollow(
            of: try context.parameters.require("user"), to: context.user.userID, approvedOnly: true)
        return .noContent
    }

    /// Those I blocked, newest first, a page at a time.
    @Sendable func blocks(_ request: Request, context: AuthenticatedContext) async throws -> Page<UserSummary> {
        let page = try request.pageRequest()
        let cursor = try page.decodeCursor(as: [String].self)
        guard cursor == nil || cursor?.count == 2 else { throw PageCursor.invalid }
        let rows = try await store.blockedIDs(by: context.user.userID, after: cursor, limit: page.limit + 1)
        let keys = Dictionary(rows.map { ($0.id, $0.key) }, uniquingKeysWith: { first, _ in first })
        return Page(fetched: try await summaries(rows.map { $0.id }, limit: page.limit), limit: page.limit) {
            keys[$0.userId] ?? []
        }
    }

    /// Blocks a user: friendship, requests and follows end both ways, and they can no longer reach me.
    @Sendable func block(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let other = try context.parameters.require("user")
        guard other.count <= 64 else { throw SocialError.notFound("The user") }
        try await store.block(context.user.userID, other, now: clock.now)
        return .noContent
    }

    @Sendable func unblock(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await store.unblock(context.user.userID, try context.parameters.require("user"))
        return .noContent
    }

    /// One side of my follows by user id, a page at a time.
    private func follows(_ request: Request, _ context: AuthenticatedContext, _ side: FollowSide)
        async throws -> Page<UserSummary>
    {
        let page = try request.pageRequest()
        let ids = try await store.follows(
            of: context.user.userID, side, after: try page.decodeCursor(as: String.self), limit: page.limit + 1)
        return Page(fetched: try await summaries(ids, limit: page.limit), limit: page.limit) { $0.userId }
    }

    /// Profile basics of `ids` (fetched with one extra row); only the first `limit` are looked up.
    private func summaries(_ ids: [String], limit: Int) async throws -> [UserSummary] {
        let known = try await profiles.profiles(Array(ids.prefix(limit)))
        return ids.map { UserSummary(known[$0], id: $0) }
    }
}
