import Foundation
import GRDB
import ServiceKit

/// A row of `packs`: an anonymous chat room tied to a place and radius.
struct PackRow: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "packs"
    var id: Int64?
    var name: String
    var latitude: Double
    var longitude: Double
    var radiusMeters: Int
    /// JSON array of tags.
    var tags: String
    var color: String
    var icon: String
    var locked: Bool
    var alphaId: String
    var official: Bool
    var memberCount: Int
    var postCount: Int
    var upVotes: Int
    var downVotes: Int
    var createdAt: Date
    var expiresAt: Date?
    var warned: Bool

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var tagList: [String] { PackRow.decodeTags(tags) }

    func isLive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }

    var popularity: Double {
        PackLifetime.points(members: memberCount, posts: postCount, upVotes: upVotes, downVotes: downVotes)
    }

    static func decodeTags(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}

/// A row of `posts`. `authorId` is for checks only and never leaves the service.
struct PostRow: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "posts"
    var id: Int64?
    var packId: Int64
    var authorId: String
    var pseudonym: String
    var title: String
    var body: String
    var tags: String
    var upVotes: Int
    var downVotes: Int
    var commentCount: Int
    var hot: Double
    var hidden: Bool
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var score: Int { upVotes - downVotes }
}

/// A row of `comments`.
struct CommentRow: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "comments"
    var id: Int64?
    var postId: Int64
    var authorId: String
    var pseudonym: String
    var body: String
    var createdAt: Date

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// A post with what a reader needs beside it: its pack's face and the reader's own vote.
struct PostListing: Sendable {
    var post: PostRow
    var pack: PackRow
    var myVote: Int
}
