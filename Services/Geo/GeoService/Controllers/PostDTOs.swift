import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

// Pack responses never carry a user id, username or e-mail: writers appear as per-pack pseudonyms, and only the
// viewer's own things say so (`isMine`, `isAlpha`, `myVote`).

/// A writer as readers see them.
struct AnonymousAuthor: Codable, Sendable {
    /// The writer's pseudonym in this pack.
    var name: String
    var isMine: Bool
    /// On comments: the comment's writer also wrote the post (Jodel's "OP").
    var isOriginalPoster: Bool?
}

struct PostView: ResponseEncodable, Sendable {
    var id: String
    var pack: PackFace
    var title: String
    var body: String
    var tags: [String]
    var author: AnonymousAuthor
    var score: Int
    var upVotes: Int
    var downVotes: Int
    /// 1, -1 or 0.
    var myVote: Int
    var commentCount: Int
    /// Only my own posts can be seen hidden: after falling to a score of -5 (for good), or reported by enough
    /// people (until an admin decides).
    var hidden: Bool
    var createdAt: Date

    init(_ listing: PostListing, viewer: String) {
        let post = listing.post
        id = String(post.id ?? 0)
        pack = PackFace(
            id: String(listing.pack.id ?? 0), name: listing.pack.name, color: listing.pack.color,
            icon: listing.pack.icon)
        title = post.title
        body = post.body
        tags = PackRecord.decodeTags(post.tags)
        author = AnonymousAuthor(name: post.pseudonym, isMine: post.authorId == viewer)
        score = post.score
        upVotes = post.upVotes
        downVotes = post.downVotes
        myVote = listing.myVote
        commentCount = post.commentCount
        hidden = post.hidden
        createdAt = post.createdAt
    }
}

struct CommentView: ResponseEncodable, Sendable {
    var id: String
    var postId: String
    var body: String
    var author: AnonymousAuthor
    var score: Int
    var upVotes: Int
    var downVotes: Int
    /// 1, -1 or 0.
    var myVote: Int
    /// Only my own comments can be seen hidden: after falling to a score of -5 (for good), or reported by enough
    /// people (until an admin decides).
    var hidden: Bool
    var createdAt: Date

    init(_ listing: CommentListing, viewer: String) {
        self.init(listing.comment, postAuthor: listing.postAuthor, viewer: viewer, myVote: listing.myVote)
    }

    init(_ comment: CommentRecord, postAuthor: String, viewer: String, myVote: Int = 0) {
        id = String(comment.id ?? 0)
        postId = String(comment.postId)
        body = comment.body
        author = AnonymousAuthor(
            name: comment.pseudonym, isMine: comment.authorId == viewer,
            isOriginalPoster: comment.authorId == postAuthor)
        score = comment.tally.score
        upVotes = comment.upVotes
        downVotes = comment.downVotes
        self.myVote = myVote
        hidden = comment.hidden
        createdAt = comment.createdAt
    }
}

/// My comment with the post it is on.
struct MyCommentView: ResponseEncodable, Sendable {
    var comment: CommentView
    /// `nil` when the post is hidden or in a locked pack I am outside of.
    var post: PostView?
}

/// The den: what I wrote, what it earned, where I belong. Only its owner sees it.
struct DenView: ResponseEncodable, Sendable {
    var postCount: Int
    var commentCount: Int
    /// Votes my posts and comments earned, kept after their packs expired.
    var upVotesEarned: Int
    var downVotesEarned: Int
    /// One score across all my packs (``Karma``): votes earned up minus down, plus 2 for each post I wrote.
    var karma: Int
    var packs: [PackView]
}

extension Page<PostView> {
    /// A page of post listings, continued after the last one in `order`.
    init(_ listings: [PostListing], order: PostOrder, limit: Int, viewer: String) {
        let cursors = Dictionary(
            listings.map {
                (String($0.post.id ?? 0), PostCursor(id: $0.post.id ?? 0, hot: order == .top ? $0.post.hot : nil))
            }
        ) { first, _ in first }
        self.init(fetched: listings.map { PostView($0, viewer: viewer) }, limit: limit) { cursors[$0.id] }
    }
}
