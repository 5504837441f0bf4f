import Foundation
import GRDB
import ServiceKit

/// A row of `comments`.
struct CommentRecord: Codable, FetchableRecord, MutablePersistableRecord, SnakeCaseColumns, Sendable {
    static let databaseTableName = "comments"

    enum Columns {
        static let id = Column("id")
        static let postID = Column("post_id")
    }

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
