import Foundation
import GRDB
import ServiceKit

/// A row of `posts`. `authorId` is for checks only and never leaves the service.
struct PostRecord: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "posts"

    enum Columns {
        static let id = Column("id")
        static let packID = Column("pack_id")
        static let authorID = Column("author_id")
        static let pseudonym = Column("pseudonym")
        static let title = Column("title")
        static let body = Column("body")
        static let tags = Column("tags")
        static let upVotes = Column("up_votes")
        static let downVotes = Column("down_votes")
        static let commentCount = Column("comment_count")
        static let hot = Column("hot")
        static let hidden = Column("hidden")
        static let createdAt = Column("created_at")
    }

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

extension PostRecord {
    /// Reads the columns by name (see ``PackRecord/init(row:)``).
    init(row: Row) throws {
        id = try row.decode(forColumn: Columns.id)
        packId = try row.decode(forColumn: Columns.packID)
        authorId = try row.decode(forColumn: Columns.authorID)
        pseudonym = try row.decode(forColumn: Columns.pseudonym)
        title = try row.decode(forColumn: Columns.title)
        body = try row.decode(forColumn: Columns.body)
        tags = try row.decode(forColumn: Columns.tags)
        upVotes = try row.decode(forColumn: Columns.upVotes)
        downVotes = try row.decode(forColumn: Columns.downVotes)
        commentCount = try row.decode(forColumn: Columns.commentCount)
        hot = try row.decode(forColumn: Columns.hot)
        hidden = try row.decode(forColumn: Columns.hidden)
        createdAt = try row.decodeDate(forColumn: Columns.createdAt)
    }
}
