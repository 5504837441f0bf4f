import Foundation
import GRDB

/// A row of `notes`; the photo's bytes stay in the table until the photo route reads them.
struct NoteRecord: HouseholdTable {
    static let databaseTableName = "notes"

    enum Columns {
        static let id = Column("id")
        static let householdId = Column("household_id")
        static let authorId = Column("author_id")
        static let text = Column("text")
        static let pinned = Column("pinned")
        static let createdAt = Column("created_at")
        static let expiresAt = Column("expires_at")
        static let photoType = Column("photo_type")
        static let photoEtag = Column("photo_etag")
    }

    /// Every column but the photo's bytes, which only the photo route reads.
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id, Columns.householdId, Columns.authorId, Columns.text, Columns.pinned, Columns.createdAt,
            Columns.expiresAt, Columns.photoType, Columns.photoEtag,
        ]
    }

    var id: String
    var householdId: String
    var authorId: String
    var text: String
    var pinned: Bool
    var createdAt: Date
    var expiresAt: Date
    var photoType: String? = nil
    var photoEtag: String? = nil
}
