import Foundation

/// A row of `notes`; the photo's bytes stay in the table until the photo route reads them.
struct NoteRecord: Codable, Sendable {
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
