import Foundation
import GRDB
import ServiceKit

// The records as GRDB reads and writes them (SQLite only; the records themselves are plain values).

extension PinRecord: ServiceTable {
    static let databaseTableName = "pins"

    enum Columns {
        static let id = Column("id")
        static let userID = Column("user_id")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension PinPhotoRecord: FetchableRecord, SnakeCaseColumns {
    static let databaseTableName = "pin_photos"

    enum Columns {
        static let id = Column("id")
        static let pinID = Column("pin_id")
        static let bytes = Column("bytes")
        static let mediaType = Column("media_type")
        static let etag = Column("etag")
        static let byteCount = Column("byte_count")
        static let createdAt = Column("created_at")
    }
}

extension PlaceRecord: FetchableRecord, SnakeCaseColumns {
    static let databaseTableName = "places"

    enum Columns {
        static let id = Column("id")
    }
}

extension CommentRecord: ServiceTable {
    static let databaseTableName = "comments"

    enum Columns {
        static let id = Column("id")
        static let postID = Column("post_id")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension PackRecord: ServiceTable {
    static let databaseTableName = "packs"

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
        static let radiusMeters = Column("radius_meters")
        static let tags = Column("tags")
        static let color = Column("color")
        static let icon = Column("icon")
        static let locked = Column("locked")
        static let alphaID = Column("alpha_id")
        static let official = Column("official")
        static let memberCount = Column("member_count")
        static let postCount = Column("post_count")
        static let upVotes = Column("up_votes")
        static let downVotes = Column("down_votes")
        static let createdAt = Column("created_at")
        static let expiresAt = Column("expires_at")
        static let warned = Column("warned")
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Reads the columns by name: lists decode hundreds of packs, and Codable's snake-case decoding costs
    /// several times more. `decode` throws for a value that does not fit, as the `Codable` path does, where GRDB's
    /// subscript would stop the process.
    init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: Columns.id),
            name: try row.decode(forColumn: Columns.name),
            latitude: try row.decode(forColumn: Columns.latitude),
            longitude: try row.decode(forColumn: Columns.longitude),
            radiusMeters: try row.decode(forColumn: Columns.radiusMeters),
            tags: try row.decode(forColumn: Columns.tags),
            color: try row.decode(forColumn: Columns.color),
            icon: try row.decode(forColumn: Columns.icon),
            locked: try row.decode(forColumn: Columns.locked),
            alphaId: try row.decode(forColumn: Columns.alphaID),
            official: try row.decode(forColumn: Columns.official),
            memberCount: try row.decode(forColumn: Columns.memberCount),
            postCount: try row.decode(forColumn: Columns.postCount),
            upVotes: try row.decode(forColumn: Columns.upVotes),
            downVotes: try row.decode(forColumn: Columns.downVotes),
            createdAt: try row.decodeDate(forColumn: Columns.createdAt),
            expiresAt: try row.decodeDateIfPresent(forColumn: Columns.expiresAt),
            warned: try row.decode(forColumn: Columns.warned))
    }
}

extension PostRecord: ServiceTable {
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

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Reads the columns by name (see ``PackRecord/init(row:)``).
    init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: Columns.id),
            packId: try row.decode(forColumn: Columns.packID),
            authorId: try row.decode(forColumn: Columns.authorID),
            pseudonym: try row.decode(forColumn: Columns.pseudonym),
            title: try row.decode(forColumn: Columns.title),
            body: try row.decode(forColumn: Columns.body),
            tags: try row.decode(forColumn: Columns.tags),
            upVotes: try row.decode(forColumn: Columns.upVotes),
            downVotes: try row.decode(forColumn: Columns.downVotes),
            commentCount: try row.decode(forColumn: Columns.commentCount),
            hot: try row.decode(forColumn: Columns.hot),
            hidden: try row.decode(forColumn: Columns.hidden),
            createdAt: try row.decodeDate(forColumn: Columns.createdAt))
    }
}
