import Foundation
import Hummingbird
import PlatformKit
import ServiceKit

/// The three ways into packs besides a pack itself: my feed, discover near me, and my den.
struct FeedController {
    let database: any GeoStore
    let clock: WallClock

    func addRoutes(to router: RouterGroup<AuthenticatedContext>) {
        router.get(RouterPath(GeoPaths.feed), use: feed)
        router.get(RouterPath(GeoPaths.discover + "/packs"), use: discoverPacks)
        router.get(RouterPath(GeoPaths.discover + "/posts"), use: discoverPosts)
        router.get(RouterPath(GeoPaths.den), use: den)
        router.get(RouterPath(GeoPaths.den + "/posts"), use: myPosts)
        router.get(RouterPath(GeoPaths.den + "/comments"), use: myComments)
    }

    /// New (default) or top posts of the packs I am in; a locked pack's posts only while I am inside it.
    @Sendable func feed(_ request: Request, context: AuthenticatedContext) async throws -> Page<PostView> {
        let position = try request.clientPosition()
        let (order, page) = try request.postListQuery()
        let viewer = context.user.userID
        let packs = try await database.packs(of: viewer, now: clock.now).filter { $0.fence.admits(position) }
        let listings = try await database.posts(
            in: packs, order: order, after: try page.decodeCursor(as: PostCursor.self), limit: page.limit + 1,
            viewer: viewer, newerThan: try Self.newerThan(request.uri.queryParameters["after"].map(String.init)))
        return Page(listings, order: order, limit: page.limit, viewer: viewer)
    }

    /// Pull to refresh: `after` names the newest post the client holds, by id or by the cursor the feed gave for
    /// it; the feed then holds only newer posts (0, everything, without it).
    static func newerThan(_ after: String?) throws -> Int64 {
        guard let after, !after.isEmpty else { return 0 }
        if after.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            guard after.utf8.count <= 18, let id = Int64(after) else {
                throw Problem.invalidField("after", "must be a post id or a feed cursor.")
            }
            return id
        }
        guard let cursor = try? PageCursor.decode(after, as: PostCursor.self), cursor.id >= 0 else {
            throw Problem.invalidField("after", "must be a post id or a feed cursor.")
        }
        return cursor.id
    }

    @Sendable func discoverPacks(_ request: Request, context: AuthenticatedContext) async throws -> Page<PackView> {
        let query = try DiscoverQuery(request)
        let now = clock.now
        let discover = query.discover
        let packs = discover.ranked(
            discover.nearby(try await database.packs(in: discover.box, now: now), tags: query.tags), now: now)
        let offset = try query.page.offset()
        let slice = Array(packs.dropFirst(offset).prefix(query.page.limit))
        let viewer = context.user.userID
        let names = try await database.memberships(of: viewer, in: slice.compactMap(\.id))
        return Page(
            items: slice.map {
                PackView($0, viewer: viewer, pseudonym: names[$0.id ?? 0], position: discover.position)
            },
            nextCursor: OffsetCursor.next(after: offset, count: slice.count, total: packs.count))
    }

    struct DistanceCursor: Codable {
        var pack: Int64
        var post: Int64
    }

    /// Posts near me whose content I may see (open packs, and locked ones I am inside), from the nearest
    /// ``PackLimits/discoverPostPacks`` packs: newest (`created`), by time-decayed votes (`popularity`), pack by
    /// pack from the nearest (`distance`, newest first within a pack), or by ``DiscoverRanking`` (`best`). The tags
    /// filter keeps posts carrying one or in a pack carrying one.
    @Sendable func discoverPosts(_ request: Request, context: AuthenticatedContext) async throws -> Page<PostView> {
        let query = try DiscoverQuery(request)
        let (discover, tags) = (query.discover, query.tags)
        let packs = discover.postPacks(
            discover.nearby(try await database.packs(in: discover.box, now: clock.now), tags: []))
        let viewer = context.user.userID
        let limit = query.page.limit
        switch discover.order {
        case .distance:
            let cursor = try query.page.decodeCursor(as: DistanceCursor.self)
            let listings = try await database.postsPackByPack(
                in: packs, after: cursor.map { ($0.pack, $0.post) }, limit: limit + 1, viewer: viewer,
                tags: tags)
            let cursors = Dictionary(
                listings.map { (String($0.post.id ?? 0), DistanceCursor(pack: $0.post.packId, post: $0.post.id ?? 0)) }
            ) { first, _ in first }
            return Page(fetched: listings.map { PostView($0, viewer: viewer) }, limit: limit) { cursors[$0.id] }
        case .best:
            // The newest `bestCandidates` posts of those packs, ranked by the one score and paged by offset.
            let candidates = try await database.posts(
                in: packs, order: .new, after: nil, limit: PackLimits.bestCandidates, viewer: viewer, tags: tags)
            let ranked = discover.best(candidates, now: clock.now)
            let offset = try query.page.offset()
            let slice = ranked.dropFirst(offset).prefix(limit)
            return Page(
                items: slice.map { PostView($0, viewer: viewer) },
                nextCursor: OffsetCursor.next(after: offset, count: slice.count, total: ranked.count))
        case .popularity, .created:
            let order: PostOrder = discover.order == .created ? .new : .top
            let listings = try await database.posts(
                in: packs, order: order, after: try query.page.decodeCursor(as: PostCursor.self),
                limit: limit + 1, viewer: viewer, tags: tags)
            return Page(listings, order: order, limit: limit, viewer: viewer)
        }
    }

    /// Totals and my packs.
    @Sendable func den(_ request: Request, context: AuthenticatedContext) async throws -> DenView {
        let viewer = context.user.userID
        let now = clock.now
        let position = try request.clientPosition()
        let totals = try await database.denTotals(of: viewer, now: now)
        let packs = try await database.packs(of: viewer, now: now)
        let names = try await database.memberships(of: viewer, in: packs.compactMap(\.id))
        return DenView(
            postCount: totals.posts, commentCount: totals.comments, upVotesEarned: totals.upVotes,
            downVotesEarned: totals.downVotes, karma: totals.karma,
            packs: packs.map { PackView($0, viewer: viewer, pseudonym: names[$0.id ?? 0], position: position) })
    }

    /// My posts in live packs, newest first (hidden ones too, marked): they are mine wherever I am.
    @Sendable func myPosts(_ request: Request, context: AuthenticatedContext) async throws -> Page<PostView> {
        let viewer = context.user.userID
        let page = try request.pageRequest()
        let listings = try await database.posts(
            by: viewer, before: try page.decodeCursor(as: Int64.self), limit: page.limit + 1, now: clock.now)
        return Page(fetched: listings.map { PostView($0, viewer: viewer) }, limit: page.limit) { Int64($0.id) ?? 0 }
    }

    /// My comments in live packs, newest first, each with its post unless that is hidden or fenced off.
    @Sendable func myComments(_ request: Request, context: AuthenticatedContext) async throws -> Page<MyCommentView> {
        let viewer = context.user.userID
        let page = try request.pageRequest()
        let rows = try await database.comments(
            by: viewer, before: try page.decodeCursor(as: Int64.self), limit: page.limit + 1, now: clock.now)
        let position = try request.clientPosition()
        let views = rows.map { comment, listing in
            // The comment is mine; the post under it is someone's content, fenced like any other.
            MyCommentView(
                comment: CommentView(comment, postAuthor: listing.post.authorId, viewer: viewer),
                post: Discover.showsPost(listing, to: viewer, at: position) ? PostView(listing, viewer: viewer) : nil)
        }
        return Page(fetched: views, limit: page.limit) { Int64($0.comment.id) ?? 0 }
    }
}
