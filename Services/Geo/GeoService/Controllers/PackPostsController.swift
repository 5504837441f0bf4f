import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// Anonymous posts in a pack, their comments and votes. Reading a locked pack's content and writing anything
/// need the `Geo-Position` inside its radius; writing needs membership. Posts and comments are rate limited per
/// writer.
struct PackPostsController {
    let database: GeoDatabase
    let access: PackAccess
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
    }

    /// A pack's posts, `sort=new` (default) or `top`.
    @Sendable func packPosts(_ request: Request, context: AuthenticatedContext) async throws -> Page<PostView> {
        let pack = try await access.readablePack(
            try context.parameters.require("pack"), at: try PackAccess.position(of: request))
        let (order, page) = try Self.listQuery(request)
        let viewer = context.user.userID
        let listings = try await database.posts(
            in: [pack], order: order, after: try page.decodeCursor(as: PostCursor.self), limit: page.limit + 1,
            viewer: viewer)
        return Self.page(listings, order: order, limit: page.limit, viewer: viewer)
    }

    struct CreateRequest: Decodable {
        var title: String
        var body: String?
        var tags: [String]?
    }

    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<PostView> {
        let pack = try await access.readablePack(
            try context.parameters.require("pack"), at: try PackAccess.position(of: request))
        let input = try await request.decode(as: CreateRequest.self, context: context)
        let title = try AnonymousText.line(input.title, field: "title", max: PackLimits.titleLength)
        let body = try AnonymousText.body(input.body ?? "", field: "body", max: PackLimits.bodyLength, min: 0)
        let tags = try AnonymousText.tags(input.tags, required: false)
        let writer = context.user.userID
        try postLimiter.enforce(writer, "You are posting too fast; try again later.")
        let post = try await database.createPost(
            pack: pack.id ?? 0, author: writer, title: title, body: body, tags: tags, now: clock.now)
        return EditedResponse(
            status: .created, response: PostView(PostListing(post: post, pack: pack, myVote: 0), viewer: writer))
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PostView {
        let viewer = context.user.userID
        return PostView(
            try await access.readablePost(
                try context.parameters.require("post"), viewer: viewer, at: try PackAccess.position(of: request)),
            viewer: viewer)
    }

    /// The writer, the pack's alpha or an admin deletes a post (from anywhere: it is their own or their pack).
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> HTTPResponse.Status {
        let viewer = context.user.userID
        let id = try context.parameters.id("post", "The post")
        guard let listing = try await database.post(id, viewer: viewer, now: clock.now) else {
            throw Problem.notFound("The post")
        }
        guard listing.post.authorId == viewer || listing.pack.alphaId == viewer || context.user.isAdmin else {
            throw Problem.forbidden("not_yours", "Only its writer or the pack's alpha can delete a post.")
        }
        try await database.deletePost(id)
        return .noContent
    }

    struct VoteRequest: Decodable {
        var value: Int
    }

    /// Up (1), down (-1) or withdraw (0); one vote per user, changeable.
    @Sendable func vote(_ request: Request, context: AuthenticatedContext) async throws -> PostView {
        let input = try await request.decode(as: VoteRequest.self, context: context)
        guard [-1, 0, 1].contains(input.value) else {
            throw Problem.invalidField("value", "must be 1 (up), -1 (down) or 0 (withdraw).")
        }
        let viewer = context.user.userID
        let listing = try await access.readablePost(
            try context.parameters.require("post"), viewer: viewer, at: try PackAccess.position(of: request))
        return PostView(
            try await database.vote(listing.post.id ?? 0, voter: viewer, value: input.value, now: clock.now),
            viewer: viewer)
    }

    /// A post's comments, oldest first.
    @Sendable func comments(_ request: Request, context: AuthenticatedContext) async throws -> Page<CommentView> {
        let viewer = context.user.userID
        let listing = try await access.readablePost(
            try context.parameters.require("post"), viewer: viewer, at: try PackAccess.position(of: request))
        let page = try request.pageRequest()
        let rows = try await database.comments(
            on: listing.post.id ?? 0, after: try page.decodeCursor(as: Int64.self), limit: page.limit + 1)
        let views = rows.map { CommentView($0, postAuthor: listing.post.authorId, viewer: viewer) }
        return Page(fetched: views, limit: page.limit) { Int64($0.id) ?? 0 }
    }

    struct CommentRequest: Decodable {
        var body: String
    }

    @Sendable func comment(_ request: Request, context: AuthenticatedContext) async throws -> EditedResponse<
        CommentView
    > {
        let viewer = context.user.userID
        let listing = try await access.readablePost(
            try context.parameters.require("post"), viewer: viewer, at: try PackAccess.position(of: request))
        let input = try await request.decode(as: CommentRequest.self, context: context)
        let body = try AnonymousText.body(input.body, field: "body", max: PackLimits.commentLength)
        try commentLimiter.enforce(viewer, "You are commenting too fast; try again later.")
        let comment = try await database.createComment(
            on: listing.post.id ?? 0, author: viewer, body: body, now: clock.now)
        if listing.post.authorId != viewer {
            // Tells the writer that someone answered, never who.
            await notices.publish(
                Notice(
                    recipients: [listing.post.authorId], kind: "geo.post_comment",
                    text: "Someone in \(listing.pack.name) commented on your post \"\(listing.post.title)\".",
                    link: GeoPaths.posts + "/\(listing.post.id ?? 0)", idempotencyKey: "post-comment:\(comment.id ?? 0)"
                ))
        }
        return EditedResponse(
            status: .created, response: CommentView(comment, postAuthor: listing.post.authorId, viewer: viewer))
    }

    /// The writer, the pack's alpha or an admin deletes a comment.
    @Sendable func deleteComment(_ request: Request, context: AuthenticatedContext) async throws
        -> HTTPResponse.Status
    {
        let viewer = context.user.userID
        let id = try context.parameters.id("comment", "The comment")
        guard let comment = try await database.comment(id),
            let listing = try await database.post(comment.postId, viewer: viewer, now: clock.now)
        else { throw Problem.notFound("The comment") }
        guard comment.authorId == viewer || listing.pack.alphaId == viewer || context.user.isAdmin else {
            throw Problem.forbidden("not_yours", "Only its writer or the pack's alpha can delete a comment.")
        }
        try await database.deleteComment(id)
        return .noContent
    }

    // MARK: Lists

    /// `sort` (new or top), `limit` and `cursor` of a post list.
    static func listQuery(_ request: Request) throws -> (PostOrder, PageRequest) {
        let query = request.uri.queryParameters
        let sort = query["sort"].map(String.init) ?? "new"
        guard let order = PostOrder(rawValue: sort) else {
            throw Problem.invalidField("sort", "must be new or top.")
        }
        return (
            order, try request.pageRequest()
        )
    }

    static func page(_ listings: [PostListing], order: PostOrder, limit: Int, viewer: String) -> Page<PostView> {
        let cursors = Dictionary(
            listings.map {
                (String($0.post.id ?? 0), PostCursor(id: $0.post.id ?? 0, hot: order == .top ? $0.post.hot : nil))
            }
        ) { first, _ in first }
        return Page(fetched: listings.map { PostView($0, viewer: viewer) }, limit: limit) { cursors[$0.id] }
    }
}
