import Foundation
import PlatformKit

/// A post with what a reader needs beside it: its pack's face and the reader's own vote.
struct PostListing: Sendable {
    var post: PostRecord
    var pack: PackRecord
    var myVote: Int
}

/// A comment with what a reader needs beside it: whether its writer wrote the post, and the reader's own vote.
struct CommentListing: Sendable {
    var comment: CommentRecord
    var postAuthor: String
    var myVote: Int
}

/// The orders posts are listed in, and where a page starts.
enum PostOrder: String, Sendable {
    /// Newest first.
    case new
    /// By the time-decayed vote score (``PostRanking/hot(up:down:createdAt:)``), then newest.
    case top
}

/// The position after the last post of a page.
struct PostCursor: Codable, Sendable {
    var id: Int64
    var hot: Double?
}

/// A pack about to expire and its active members.
struct ExpiryWarning: Sendable {
    var pack: PackRecord
    var members: [String]
}

/// What one sweep step removed.
struct SweepStep: Sendable, Equatable {
    var posts: Int
    var packs: Int
    var isEmpty: Bool { posts == 0 && packs == 0 }
}

/// One candidate of a place search: the place and the name it matched by.
struct PlaceHit: Sendable {
    var place: PlaceRecord
    var matchedName: String
    /// 0 exact, 1 prefix, 2 word match, 3 + edit distance for typos.
    var quality: Int

    /// `hits` filled up to `limit` with the `fuzzy` ones, fewest typos then biggest first, each place once.
    static func filling(_ hits: [PlaceHit], seen: Set<Int64>, with fuzzy: [PlaceHit], limit: Int) -> [PlaceHit] {
        var (hits, seen) = (hits, seen)
        let ranked = fuzzy.sorted { ($0.quality, -$0.place.population) < ($1.quality, -$1.place.population) }
        for hit in ranked where hits.count < limit && seen.insert(hit.place.id).inserted {
            hits.append(hit)
        }
        return hits
    }
}

/// A writer's totals for the den: posts and comments in live packs, and what all they wrote earned (kept after
/// their packs expired): votes on their posts and comments, and the number of posts, for their ``Karma``.
struct DenTotals: Sendable {
    var posts: Int
    var comments: Int
    var upVotes: Int
    var downVotes: Int
    var postsWritten: Int

    var karma: Int { Karma.score(upVotes: upVotes, downVotes: downVotes, posts: postsWritten) }
}

/// Lists kept as JSON text in a column (pack and post tags), the same text in either database.
enum StoredJSON {
    static func array<T: Encodable>(_ values: [T]) -> String {
        String(decoding: (try? PlatformJSONWriter.encode(values)) ?? Array("[]".utf8), as: UTF8.self)
    }
}

extension PostRecord {
    /// A new post with no votes yet.
    init(
        id: Int64?, packId: Int64, author: String, pseudonym: String, title: String, body: String, tags: String,
        now: Date
    ) {
        self.init(
            id: id, packId: packId, authorId: author, pseudonym: pseudonym, title: title, body: body, tags: tags,
            upVotes: 0, downVotes: 0, commentCount: 0, hot: PostRanking.hot(up: 0, down: 0, createdAt: now),
            hidden: false, createdAt: now)
    }
}
