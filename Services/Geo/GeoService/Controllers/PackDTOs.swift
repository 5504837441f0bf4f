import Foundation
import HTTPTypes
import Hummingbird
import PlatformKit
import ServiceKit

// Pack responses never carry a user id, username or e-mail: writers appear as per-pack pseudonyms, and only the
// viewer's own things say so (`isMine`, `isAlpha`, `myVote`).

/// A pack as a viewer sees it; `contentVisible` is false for a locked pack the viewer is outside of.
struct PackView: ResponseEncodable, Sendable {
    var id: String
    var name: String
    var latitude: Double
    var longitude: Double
    var radiusMeters: Int
    var tags: [String]
    var color: String
    var icon: String
    var locked: Bool
    /// Made by an admin: never expires.
    var official: Bool
    var memberCount: Int
    var postCount: Int
    /// The popularity points of ``PackLifetime`` (members, posts, Wilson-weighted votes).
    var popularity: Double
    var createdAt: Date
    var expiresAt: Date?
    /// From the `Geo-Position` sent, rounded (100 m steps under 1 km, then whole kilometres).
    var distanceMeters: Int?
    /// Whether the `Geo-Position` sent is inside the pack's radius.
    var inside: Bool?
    var contentVisible: Bool
    var member: Bool
    var isAlpha: Bool
    /// My name in this pack, when I am a member.
    var myPseudonym: String?

    init(_ pack: PackRecord, viewer: String, pseudonym: String?, position: ClientPosition?) {
        id = String(pack.id ?? 0)
        name = pack.name
        latitude = pack.latitude
        longitude = pack.longitude
        radiusMeters = pack.radiusMeters
        tags = pack.tagList
        color = pack.color
        icon = pack.icon
        locked = pack.locked
        official = pack.official
        memberCount = pack.memberCount
        postCount = pack.postCount
        popularity = (pack.popularity * 100).rounded() / 100
        createdAt = pack.createdAt
        expiresAt = pack.expiresAt
        distanceMeters = position.map {
            ClientPosition.roundedDistance($0.distance(toLatitude: pack.latitude, longitude: pack.longitude))
        }
        inside = position.map {
            $0.isInside(latitude: pack.latitude, longitude: pack.longitude, radius: pack.radiusMeters)
        }
        contentVisible = pack.fence.admits(position)
        member = pseudonym != nil
        // An alpha who left keeps the title but not the rights, so the app must not offer them.
        isAlpha = pack.alphaId == viewer && pseudonym != nil
        myPseudonym = pseudonym
    }
}

/// The face of the pack a post came from (feed items show it).
struct PackFace: Codable, Sendable {
    var id: String
    var name: String
    var color: String
    var icon: String
}

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
    /// Only my own comments can be seen hidden (reported by enough people, until an admin decides).
    var hidden: Bool
    var createdAt: Date

    init(_ comment: CommentRecord, postAuthor: String, viewer: String) {
        id = String(comment.id ?? 0)
        postId = String(comment.postId)
        body = comment.body
        author = AnonymousAuthor(
            name: comment.pseudonym, isMine: comment.authorId == viewer,
            isOriginalPoster: comment.authorId == postAuthor)
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

/// The den: what I wrote, what it earned, where I belong.
struct DenView: ResponseEncodable, Sendable {
    var postCount: Int
    var commentCount: Int
    /// Votes my posts earned, kept after their packs expired.
    var upVotesEarned: Int
    var downVotesEarned: Int
    var packs: [PackView]
}

extension ClientPosition {
    /// The request header that carries the client's position.
    static let header = "Geo-Position"

    /// Parses the header; absent is `nil`, malformed is a 400 problem. The separator may come percent-encoded
    /// (`%3B`): OpenAPI clients such as swift-openapi-generator's escape `;` in a header parameter.
    static func parse(_ value: String?) throws -> ClientPosition? {
        guard let value = value?.replacingOccurrences(of: "%3B", with: ";", options: .caseInsensitive) else {
            return nil
        }
        let parts = value.split(separator: ";", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard parts.count >= 2, let latitude = parts[0], let longitude = parts[1] else {
            throw Problem.badRequest(
                "invalid_position", "\(header) must be '<latitude>;<longitude>' in decimal degrees.")
        }
        try Validate.coordinate(latitude: latitude, longitude: longitude)
        return ClientPosition(latitude: latitude, longitude: longitude)
    }
}

extension Request {
    /// The client's position from the request's `Geo-Position` header, if sent.
    func clientPosition() throws -> ClientPosition? {
        try ClientPosition.parse(headers[HTTPField.Name(ClientPosition.header)!])
    }

    /// `sort` (new or top), `limit` and `cursor` of a post list.
    func postListQuery() throws -> (PostOrder, PageRequest) {
        let sort = uri.queryParameters["sort"].map(String.init) ?? "new"
        guard let order = PostOrder(rawValue: sort) else {
            throw Problem.invalidField("sort", "must be new or top.")
        }
        return (order, try pageRequest())
    }
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
