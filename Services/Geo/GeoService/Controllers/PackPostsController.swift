import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Anonymous posts in a pack, their comments and votes. Reading a locked pack's content and writing anything
/// need the `Geo-Position` inside its radius; writing needs membership. Posts and comments are rate limited per
/// writer.
struct PackPostsController {
    let database: any GeoStore
    let clock: WallClock
    let postLimiter: RateLimiter
    let commentLimiter: RateLimiter
    let notices: any NoticeSink

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.packs + "/:pack/posts"), use: packPosts)
        router.post(RouterPath(GeoPaths.packs + "/:pack/posts"), use: create)
        router.get(RouterPath(GeoPaths.posts + "/:post"), use: show)
        router.delete(RouterPath(GeoPaths.posts + "/:post"), use: delete)
        router.put(RouterPath(GeoPaths.posts + "/:post/vote"), use: vote)
        router.get(RouterPath(GeoPaths.posts + "/:post/comments"), use: comments)
        router.post(RouterPath(GeoPaths.posts + "/:post/comments"), use: comment)
        router.delete(RouterPath(GeoPaths.comments + "/:comment"), use: deleteComment)
        router.put(RouterPath(GeoPaths.comments + "/:comment/vote"), use: voteComment)
    }

    /// A pack's posts, `sort=new` (default) or `top`.
    @Sendable func packPosts(_ request: Request, context: AuthenticatedContext) async throws -> Page<PostView> {
        let position = try request.clientPosition()
        let pack = try await database.readablePack(
            try context.parameters.id("pack", "The pack"), at: position, now: clock.now)
        let (order, page) = try request.postListQuery()
        let viewer = context.user.userID
        let listings = try await database.posts(
            in: [pack], order: order, after: try page.decodeCursor(as: PostCursor.self), limit: page.limit + 1,
            viewer: viewer)
        return Page(listings, order: order, limit: page.limit, viewer: viewer)
    }

    struct CreateRequest: Decodable {
        var title: String
        var body: String?
        var tags: [String]?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<PostView> {
        let packID = try context.parameters.id("pack", "The pack")
        let position = try request.clientPosition()
        let input = try await request.decode(as: CreateRequest.self, context: context)
        let title = try Validate.text(AnonymousText.line(input.title), field: "title", max: PackLimits.titleLength)
        // A post says something: a missing body, or one of spaces and line breaks only, is refused.
        guard let rawBody = input.body else { throw Problem.invalidField("body", "is required.") }
        let body = try Validate.text(AnonymousText.body(rawBody), field: "body", max: PackLimits.bodyLength)
        let tags = try AnonymousText.tags(input.tags, required: false)
        let writer = context.user.userID
        let listing = try await database.createPost(
            pack: packID, author: writer, title: title, body: body, tags: tags, at: position,
            admit: { [postLimiter] in try postLimiter.enforce(writer, "You are posting too fast; try again later.") },
            now: clock.now)
        return EditedResponse(status: .created, response: PostView(listing, viewer: writer))
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PostView {
        let viewer = context.user.userID
        return PostView(
            try await database.readablePost(
                try context.parameters.id("post", "The post"), viewer: viewer, at: try request.clientPosition(),
                now: clock.now),
            viewer: viewer)
    }

    /// The writer, the pack's alpha or an admin deletes a post (from anywhere: it is their own or their pack).
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        try await database.deletePost(
            try context.parameters.id("post", "The post"), by: context.user.userID, isAdmin: context.user.isAdmin,
            now: clock.now)
        return .noContent
    }

    struct VoteRequest: Decodable {
        var value: Int

        /// The vote sent: 1, -1 or 0.
        static func value(of request: Request, context: AuthenticatedContext) async throws -> Int {
            let input = try await request.decode(as: VoteRequest.self, context: context)
            guard [-1, 0, 1].contains(input.value) else {
                throw Problem.invalidField("value", "must be 1 (up), -1 (down) or 0 (withdraw).")
            }
            return input.value
        }
    }

    /// Up (1), down (-1) or withdraw (0); one vote per user, changeable.
    @Sendable func vote(_ request: Request, context: AuthenticatedContext) async throws -> PostView {
        let value = try await VoteRequest.value(of: request, context: context)
        let viewer = context.user.userID
        return PostView(
            try await database.vote(
                try context.parameters.id("post", "The post"), voter: viewer, value: value,
                at: try request.clientPosition(), now: clock.now),
            viewer: viewer)
    }

    /// A comment's vote, as a post's.
    @Sendable func voteComment(_ request: Request, context: AuthenticatedContext) async throws -> CommentView {
        let value = try await VoteRequest.value(of: request, context: context)
        let viewer = context.user.userID
        return CommentView(
            try await database.voteComment(
                try context.parameters.id("comment", "The comment"), voter: viewer, value: value,
                at: try request.clientPosition(), now: clock.now),
            viewer: viewer)
    }

    /// A post's comments, oldest first.
    @Sendable func comments(_ request: Request, context: AuthenticatedContext) async throws -> Page<CommentView> {
        let viewer = context.user.userID
        let postID = try context.parameters.id("post", "The post")
        let position = try request.clientPosition()
        let page = try request.pageRequest()
        let (listing, rows, myVotes) = try await database.comments(
            on: postID, viewer: viewer, at: position, after: try page.decodeCursor(as: Int64.self),
            limit: page.limit + 1, now: clock.now)
        let views = rows.map {
            CommentView($0, postAuthor: listing.post.authorId, viewer: viewer, myVote: myVotes[$0.id ?? 0] ?? 0)
        }
        return Page(fetched: views, limit: page.limit) { Int64($0.id) ?? 0 }
    }

    struct CommentRequest: Decodable {
        var body: String
    }

    @Sendable func comment(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        CommentView
    > {
        let viewer = context.user.userID
        let postID = try context.parameters.id("post", "The post")
        let position = try request.clientPosition()
        let input = try await request.decode(as: CommentRequest.self, context: context)
        let body = try Validate.text(AnonymousText.body(input.body), field: "body", max: PackLimits.commentLength)
        let (comment, listing) = try await database.createComment(
            on: postID, author: viewer, body: body, at: position,
            admit: { [commentLimiter] in
                try commentLimiter.enforce(viewer, "You are commenting too fast; try again later.")
            },
            now: clock.now,
            notices: ChangeNotices(sink: notices) { comment, listing in
                guard listing.post.authorId != viewer else { return [] }
                // Tells the writer that someone answered, never who.
                return [
                    Notice(
                        recipients: [listing.post.authorId], kind: "geo.post_comment",
                        text: "Someone in \(listing.pack.name) commented on your post \"\(listing.post.title)\".",
                        link: GeoPaths.posts + "/\(listing.post.id ?? 0)",
                        idempotencyKey: "post-comment:\(comment.id ?? 0)")
                ]
            })
        return EditedResponse(
            status: .created, response: CommentView(comment, postAuthor: listing.post.authorId, viewer: viewer))
    }

    /// The writer, the pack's alpha or an admin deletes a comment.
    @Sendable func deleteComment(_ request: Request, context: AuthenticatedContext) async throws
        -> HTTPResponse.Status
    {
        try await database.deleteComment(
            try context.parameters.id("comment", "The comment"), by: context.user.userID,
            isAdmin: context.user.isAdmin, now: clock.now)
        return .noContent
    }
}
