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

    /// Tags are stored as a JSON array of validated words (letters, digits, `-`, `_`: nothing JSON escapes), so
    /// splitting the text is enough; anything else goes through the JSON decoder.
    static func decodeTags(_ json: String) -> [String] {
        guard json.hasPrefix("[\""), json.hasSuffix("\"]"), !json.contains("\\") else {
            return (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
        }
        return json.dropFirst(2).dropLast(2).components(separatedBy: "\",\"")
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

extension PackRow {
    /// Reads the columns by name: lists decode hundreds of packs, and Codable's snake-case decoding costs
    /// several times more.
    init(row: Row) throws {
        id = row["id"]
        name = row["name"]
        latitude = row["latitude"]
        longitude = row["longitude"]
        radiusMeters = row["radius_meters"]
        tags = row["tags"]
        color = row["color"]
        icon = row["icon"]
        locked = row["locked"]
        alphaId = row["alpha_id"]
        official = row["official"]
        memberCount = row["member_count"]
        postCount = row["post_count"]
        upVotes = row["up_votes"]
        downVotes = row["down_votes"]
        createdAt = row["created_at"]
        expiresAt = row["expires_at"]
        warned = row["warned"]
    }
}

extension PostRow {
    /// Reads the columns by name (see ``PackRow/init(row:)``).
    init(row: Row) throws {
        id = row["id"]
        packId = row["pack_id"]
        authorId = row["author_id"]
        pseudonym = row["pseudonym"]
        title = row["title"]
        body = row["body"]
        tags = row["tags"]
        upVotes = row["up_votes"]
        downVotes = row["down_votes"]
        commentCount = row["comment_count"]
        hot = row["hot"]
        hidden = row["hidden"]
        createdAt = row["created_at"]
    }
}
